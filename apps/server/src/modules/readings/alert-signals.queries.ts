import type { SqlRunner } from '../../db/client.ts';

// What alerts ask of the readings of many meters at once (modules/alerts): set-based, one round
// trip per question, so that ten thousand meters are evaluated in seconds.

/** One meter's day: [start, end) instants, and the slot it fills in the caller's answer. */
export interface DayAsk {
  meterId: number;
  start: Date;
  end: Date;
  slot: number;
}

/** The registers at or just before a day's edges, and the interval records starting in it. */
interface DayRow {
  meter_id: number;
  slot: number;
  start_micro: number | null;
  start_at: Date | null;
  end_micro: number | null;
  end_at: Date | null;
  record_micro: number | null;
  records: number;
}

/** One meter's day as alerts read it (null: no register at or before that edge). */
export interface DayRegisters {
  meterId: number;
  slot: number;
  startMicro: number | null;
  startAt: Date | null;
  endMicro: number | null;
  endAt: Date | null;
  /** The energy of the interval records starting in the day, and how many there are. */
  recordMicro: number | null;
  records: number;
}

export async function findDayRegisters(db: SqlRunner, asks: readonly DayAsk[]): Promise<DayRegisters[]> {
  const rows = await db.query<DayRow>(
    `SELECT a.meter_id, a.slot, s.value_micro AS start_micro, s.read_at AS start_at,
            e.value_micro AS end_micro, e.read_at AS end_at, i.micro AS record_micro, coalesce(i.n, 0)::int AS records
     FROM unnest($1::int[], $2::timestamptz[], $3::timestamptz[], $4::int[]) AS a(meter_id, day_start, day_end, slot)
     LEFT JOIN LATERAL (SELECT value_micro, read_at FROM register_readings r
                        WHERE r.meter_id = a.meter_id AND r.channel = 1 AND r.read_at <= a.day_start
                        ORDER BY r.read_at DESC LIMIT 1) s ON true
     LEFT JOIN LATERAL (SELECT value_micro, read_at FROM register_readings r
                        WHERE r.meter_id = a.meter_id AND r.channel = 1 AND r.read_at <= a.day_end
                        ORDER BY r.read_at DESC LIMIT 1) e ON true
     LEFT JOIN LATERAL (SELECT sum(energy_micro)::int8 AS micro, count(*) AS n FROM interval_readings i
                        WHERE i.meter_id = a.meter_id AND i.channel = 1
                          AND i.start_at >= a.day_start AND i.start_at < a.day_end) i ON true`,
    [asks.map((a) => a.meterId), asks.map((a) => a.start), asks.map((a) => a.end), asks.map((a) => a.slot)],
  );
  return rows.map((row) => ({
    meterId: row.meter_id,
    slot: row.slot,
    startMicro: row.start_micro,
    startAt: row.start_at,
    endMicro: row.end_micro,
    endAt: row.end_at,
    recordMicro: row.record_micro,
    records: row.records,
  }));
}

/** A meter's register reading below the one before it: when, and both values (millionths). */
export interface RegisterDecrease {
  meterId: number;
  readAt: Date;
  beforeMicro: number;
  afterMicro: number;
}

/** The latest register reading below the one before it, per meter, read at or after `since`. */
export async function findRegisterDecreases(
  db: SqlRunner,
  meterIds: readonly number[],
  since: Date,
): Promise<RegisterDecrease[]> {
  const rows = await db.query<{ meter_id: number; read_at: Date; before_micro: number; after_micro: number }>(
    `SELECT DISTINCT ON (meter_id) meter_id, read_at, before_micro, after_micro
     FROM (SELECT meter_id, read_at, value_micro AS after_micro,
                  lag(value_micro) OVER (PARTITION BY meter_id ORDER BY read_at) AS before_micro
           FROM register_readings
           WHERE meter_id = ANY($1::int[]) AND channel = 1 AND read_at >= $2) x
     WHERE before_micro IS NOT NULL AND after_micro < before_micro
     ORDER BY meter_id, read_at DESC`,
    [meterIds, since],
  );
  return rows.map((row) => ({
    meterId: row.meter_id,
    readAt: row.read_at,
    beforeMicro: row.before_micro,
    afterMicro: row.after_micro,
  }));
}

/** A meter's latest import interval record since its month started, and the highest-power one before it. */
export interface MonthPeak {
  meterId: number;
  lastStart: Date;
  lastEnd: Date;
  lastMicro: number;
  peakStart: Date | null;
  peakEnd: Date | null;
  peakMicro: number | null;
}

/**
 * Per meter (from `monthStarts[i]`, its local month's first instant): the latest interval record,
 * and the record of highest average power (energy ÷ length) before it in the month.
 */
export function findMonthPeaks(
  db: SqlRunner,
  meterIds: readonly number[],
  monthStarts: readonly Date[],
): Promise<MonthPeak[]> {
  return db.query<MonthPeak>(
    `SELECT a.meter_id AS "meterId", l.start_at AS "lastStart", l.end_at AS "lastEnd",
            l.energy_micro AS "lastMicro", p.start_at AS "peakStart", p.end_at AS "peakEnd",
            p.energy_micro AS "peakMicro"
     FROM unnest($1::int[], $2::timestamptz[]) AS a(meter_id, month_start)
     JOIN LATERAL (SELECT start_at, end_at, energy_micro FROM interval_readings i
                   WHERE i.meter_id = a.meter_id AND i.channel = 1 AND i.start_at >= a.month_start
                   ORDER BY i.start_at DESC LIMIT 1) l ON true
     LEFT JOIN LATERAL (SELECT start_at, end_at, energy_micro FROM interval_readings i
                        WHERE i.meter_id = a.meter_id AND i.channel = 1
                          AND i.start_at >= a.month_start AND i.start_at < l.start_at
                        ORDER BY i.energy_micro::float8 / extract(epoch FROM i.end_at - i.start_at) DESC,
                                 i.start_at
                        LIMIT 1) p ON true`,
    [meterIds, monthStarts],
  );
}
