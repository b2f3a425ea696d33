import type { Db, SqlRunner } from '../../db/client.ts';
import {
  ensurePartitions,
  findLastReadings,
  findRegistersAround,
  insertRegister,
  registersPage,
} from './readings.queries.ts';

/** A meter's latest: its register as last read, and the last instant its import channel has data for. */
export interface LastReading {
  readAt: Date | null;
  valueMicro: number | null;
  dataAt: Date | null;
}

/** A meter with no reading yet. */
export const NO_READING: LastReading = { readAt: null, valueMicro: null, dataAt: null };

/**
 * What other modules ask of the stored readings outside the check page's series
 * (readings-store.ts) and imports (staging.ts). The readings module alone runs SQL on the
 * readings tables.
 */
export const readings = {
  /** The latest of each meter, in one round trip. */
  async latest(db: SqlRunner, meterIds: readonly number[]): Promise<Map<number, LastReading>> {
    const found = new Map<number, LastReading>(meterIds.map((id) => [id, NO_READING]));
    if (meterIds.length === 0) return found;
    for (const row of await findLastReadings(db, meterIds)) {
      found.set(row.meter_id, { readAt: row.read_at, valueMicro: row.value_micro, dataAt: row.data_at });
    }
    return found;
  },

  /** Creates the monthly partitions [from, to] needs before readings are written there. */
  makeRoom: (db: Pick<Db, 'transaction'>, from: Date, to: Date) => ensurePartitions(db, from, to),

  /** The import register at, just before and just after `at` (a meter exchange's checks). */
  registersAround: (db: SqlRunner, meterId: number, at: Date) => findRegistersAround(db, meterId, at),

  /** Stores one import register reading (an exchange's final or opening register); true when new. */
  addRegister: (db: SqlRunner, meterId: number, reading: { at: Date; micro: number; source: number }) =>
    insertRegister(db, meterId, reading),

  /** One page of a meter's import registers in (afterMs, toMs], for an export. */
  registersPage: (db: SqlRunner, meterId: number, afterMs: number, toMs: number, limit: number) =>
    registersPage(db, meterId, afterMs, toMs, limit),
};
