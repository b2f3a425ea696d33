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
export interface DayRow {
  meter_id: number;
  slot: number;
  start_micro: number | null;
  start_at: Date | null;
  end_micro: number | null;
  end_at: Date | null;
  record_micro: number | null;
  records: number;
}

export function findDayRegisters(db: SqlRunner, asks: readonly DayAsk[]): Promise<DayRow[]> {
  return db.query<DayRow>(
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
}

/** The latest register reading below the one before it, per meter, read at or after `since`. */
export function findRegisterDecreases(
  db: SqlRunner,
  meterIds: readonly number[],
  since: Date,
): Promise<{ meter_id: number; read_at: Date; before_micro: number; after_micro: number }[]> {
  return db.query(
    `SELECT DISTINCT ON (meter_id) meter_id, read_at, before_micro, after_micro
     FROM (SELECT meter_id, read_at, value_micro AS after_micro,
                  lag(value_micro) OVER (PARTITION BY meter_id ORDER BY read_at) AS before_micro
           FROM register_readings
           WHERE meter_id = ANY($1::int[]) AND channel = 1 AND read_at >= $2) x
     WHERE before_micro IS NOT NULL AND after_micro < before_micro
     ORDER BY meter_id, read_at DESC`,
    [meterIds, since],
  );
}

/** A meter's latest import interval record since its month started, and the highest-power one before it. */
export interface MonthPeakRow {
  meter_id: number;
  last_start: Date;
  last_end: Date;
  last_micro: number;
  peak_start: Date | null;
  peak_end: Date | null;
  peak_micro: number | null;
}

/**
 * Per meter (from `monthStarts[i]`, its local month's first instant): the latest interval record,
 * and the record of highest average power (energy ÷ length) before it in the month.
 */
export function findMonthPeaks(
  db: SqlRunner,
  meterIds: readonly number[],
  monthStarts: readonly Date[],
): Promise<MonthPeakRow[]> {
  return db.query<MonthPeakRow>(
    `SELECT a.meter_id, l.start_at AS last_start, l.end_at AS last_end, l.energy_micro AS last_micro,
            p.start_at AS peak_start, p.end_at AS peak_end, p.energy_micro AS peak_micro
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
