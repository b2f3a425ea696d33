import type { ReadingCorrection } from '@cm/contracts/check.ts';
import { readingQualities } from '@cm/contracts/check-limits.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { ReadingKind } from './channels.ts';
import {
  findDayRegisters,
  findMonthPeaks,
  findRegisterDecreases,
  type DayAsk,
} from './alert-signals.queries.ts';
import { warmUpCode } from './warm-up.ts';
import {
  detachPartition,
  ensurePartitions,
  findPartitionsBefore,
  findCorrections,
  findRegistersAround,
  insertRegister,
  READINGS_CATALOG_WARM_UP,
  findStoredKinds,
  intervalsPage,
  registersPage,
  type PageAsk,
} from './readings.queries.ts';

export type { DayAsk, DayRegisters, MonthPeak, RegisterDecrease } from './alert-signals.queries.ts';

const DAY_MS = 86_400_000;
/** Months of partitions kept ready ahead of the data, so that a write never waits to create one. */
const PARTITIONS_AHEAD_MONTHS = 3;

/**
 * What other modules ask of the stored readings outside the check page's series
 * (readings-store.ts) and imports (staging.ts). The readings module alone runs SQL on the
 * readings tables.
 */
export const readings = {
  /** Loads the readings tables' catalog on every connection of `db` (at start, before clients come). */
  warmUpConnections: (db: Pick<Db, 'warmUp'>) => db.warmUp(READINGS_CATALOG_WARM_UP),

  /** Runs the code of a year's answer on made-up readings, so the first clients find it optimised (at start). */
  warmUpCode,

  /** Creates the partitions [from, to] needs (readings months, chunk-cache years) before readings are written there. */
  makeRoom: (db: Pick<Db, 'transaction'>, from: Date, to: Date) => ensurePartitions(db, from, to),

  /** Creates this month's partitions and those of the next PARTITIONS_AHEAD_MONTHS ahead of their data (housekeeping). */
  makeRoomAhead: (db: Pick<Db, 'transaction'>, nowMs = Date.now()) =>
    ensurePartitions(db, new Date(nowMs), new Date(nowMs + PARTITIONS_AHEAD_MONTHS * 31 * DAY_MS)),

  /**
   * Takes every month that ended by `before` out of the readings tables, for archiving: each month's
   * readings partitions become tables of their own (answered: dump them, then drop them), its chunks
   * leave the cache, and a chunk-cache year that ended by then is dropped. Reads no longer see those
   * months. One partition at a time, each in a short transaction that waits at most
   * `lockTimeoutMs` for the tables.
   */
  async archiveBefore(db: Db, before: Date, lockTimeoutMs = 10_000): Promise<string[]> {
    const partitions = await findPartitionsBefore(db, before);
    const detached: string[] = [];
    for (const partition of partitions) {
      await db.transaction(async (tx) => {
        await tx.query(`SET LOCAL lock_timeout = '${Math.max(1, Math.round(lockTimeoutMs))}ms'`);
        await detachPartition(tx, partition);
      });
      if (partition.parent !== 'reading_chunks') detached.push(partition.name);
    }
    return detached;
  },

  /** The import register at, just before and just after `at` (a meter exchange's checks). */
  registersAround: (db: SqlRunner, meterId: number, at: Date) => findRegistersAround(db, meterId, at),

  /** Stores one import register reading (an exchange's final or opening register); true when new. */
  addRegister: (db: SqlRunner, meterId: number, reading: { at: Date; micro: number; source: number }) =>
    insertRegister(db, meterId, reading),

  /**
   * A channel's corrections in [from, to), newest first, at most `limit` (and how many there are).
   * `withDetail`: the reason each import gave, naming who ran it (for administrators).
   */
  async corrections(
    db: SqlRunner,
    where: { meterId: number; channel: number; from: Date; to: Date },
    limit: number,
    withDetail: boolean,
  ): Promise<{ total: number; corrections: ReadingCorrection[] }> {
    const rows = await findCorrections(db, where.meterId, where.channel, where.from, where.to, limit);
    const quality = (code: number) => readingQualities[code] ?? 'actual';
    return {
      total: rows[0]?.total ?? 0,
      corrections: rows.map((row) => ({
        kind: row.kind === ReadingKind.interval ? 'interval' : 'register',
        at: row.at.toISOString(),
        end: row.end_at ? row.end_at.toISOString() : null,
        before: { value: row.old_micro / 1e6, quality: quality(row.old_quality) },
        after: { value: row.new_micro / 1e6, quality: quality(row.new_quality) },
        correctedAt: row.replaced_at.toISOString(),
        source: row.actor_user_id === null ? 'device' : 'import',
        ...(withDetail ? { detail: row.reason } : {}),
      })),
    };
  },

  /** For alerts: the registers around many meters' days and the records inside them, in one round trip. */
  dayRegisters: (db: SqlRunner, asks: readonly DayAsk[]) => findDayRegisters(db, asks),

  /** For alerts: each meter's latest import register below the one before it, since `since`. */
  registerDecreases: (db: SqlRunner, meterIds: readonly number[], since: Date) =>
    findRegisterDecreases(db, meterIds, since),

  /** For alerts: each meter's latest interval record of its month and the month's peak record before it. */
  monthPeaks: (db: SqlRunner, meterIds: readonly number[], monthStarts: readonly Date[]) =>
    findMonthPeaks(db, meterIds, monthStarts),

  /** For an export: one page of a channel's registers at instants in (afterMs, toMs]: [instant ms, millionths, quality]. */
  registersPage: (db: SqlRunner, ask: PageAsk) => registersPage(db, ask),

  /** For an export: one page of a channel's interval records starting in (afterMs, toMs): [start, end, millionths, quality]. */
  intervalsPage: (db: SqlRunner, ask: PageAsk) => intervalsPage(db, ask),

  /** The channels and kinds (0 register, 1 interval) a meter has readings of in [fromMs, toMs]. */
  storedKinds: (db: SqlRunner, meterId: number, fromMs: number, toMs: number) =>
    findStoredKinds(db, meterId, fromMs, toMs),
};
