import type { SqlRunner } from '../../db/client.ts';
import type { MeterRef, StagedRow } from './import-rows.ts';
import { isoInstant } from './iso-instant.ts';

// The import stages every row of a file in a temporary table (dropped at commit), checks the
// whole set with a few set-based statements, then stores it with one INSERT … ON CONFLICT DO
// NOTHING. Nothing here holds the file in memory.

export async function loadMeters(db: SqlRunner): Promise<Map<string, MeterRef>> {
  const rows = await db.queryArrays(
    `SELECT device_id, meter_number, multiplier, register_digits, interval_minutes,
            (extract(epoch FROM installed_at) * 1000)::float8, (extract(epoch FROM removed_at) * 1000)::float8
     FROM meters`,
  );
  const meters = new Map<string, MeterRef>();
  for (const row of rows) {
    const [id, meterNumber, multiplier, registerDigits, intervalMinutes, installedAtMs, removedAtMs] = row;
    meters.set(String(meterNumber), {
      id: Number(id),
      meterNumber: String(meterNumber),
      multiplier: Number(multiplier),
      registerDigits: Number(registerDigits),
      intervalMinutes: Number(intervalMinutes),
      installedAtMs: Number(installedAtMs),
      removedAtMs: removedAtMs === null ? null : Number(removedAtMs),
    });
  }
  return meters;
}

export async function createStaging(tx: SqlRunner): Promise<void> {
  // The checks sort and hash the whole file; in memory rather than in temp files. Only for this
  // transaction, and it changes no guarantee.
  await tx.query(`SET LOCAL work_mem = '64MB'`);
  await tx.query(
    `CREATE TEMP TABLE import_rows (
       seq int8 GENERATED ALWAYS AS IDENTITY, line int NOT NULL, meter_id int NOT NULL, read_at timestamptz NOT NULL, value int8 NOT NULL,
       start_at timestamptz, quality int2 NOT NULL, is_opening boolean NOT NULL DEFAULT false, reject text
     ) ON COMMIT DROP`,
  );
}

/** COPY text format, one row per line. */
export function copyLine(row: StagedRow): string {
  const start = row.startAtMs === null ? '\\N' : isoInstant(row.startAtMs);
  return `${row.line}\t${row.meterId}\t${isoInstant(row.readAtMs)}\t${row.value}\t${start}\t${row.quality}\n`;
}

export const COPY_STAGING = 'COPY import_rows (line, meter_id, read_at, value, start_at, quality) FROM STDIN';

export async function indexStaging(tx: SqlRunner): Promise<void> {
  await tx.query('CREATE INDEX ON import_rows (meter_id, read_at, seq)');
  await tx.query('ANALYZE import_rows');
}

/** Two rows of the file for one meter and instant: the first is kept, the others refused. */
export async function rejectInFileDuplicates(tx: SqlRunner): Promise<void> {
  await tx.query(
    `UPDATE import_rows r
     SET reject = CASE WHEN r.value = f.value THEN 'duplicate of line ' || f.line || ' (same meter and time).'
                       ELSE 'same meter and time as line ' || f.line || ' with another value.' END
     FROM (SELECT DISTINCT ON (meter_id, read_at) meter_id, read_at, seq, line, value
           FROM import_rows ORDER BY meter_id, read_at, seq) f
     WHERE r.meter_id = f.meter_id AND r.read_at = f.read_at AND r.seq <> f.seq`,
  );
}

/**
 * Interval files: turns each meter's interval energies into cumulative registers, continuing
 * from the meter's last stored register before the file's first interval (0 when none; then an
 * opening register is staged at the start of the first interval). The register wraps at the
 * meter's digits, as the meter's own would. Re-importing the same file yields the same registers.
 */
export async function accumulateIntervals(tx: SqlRunner): Promise<void> {
  await tx.query(
    `CREATE TEMP TABLE import_bases ON COMMIT DROP AS
     SELECT f.meter_id, f.first_at, f.first_start, p.register_milli AS base,
            (10::numeric ^ m.register_digits * 1000)::int8 AS range
     FROM (SELECT DISTINCT ON (meter_id) meter_id, read_at AS first_at, start_at AS first_start
           FROM import_rows WHERE reject IS NULL ORDER BY meter_id, read_at) f
     JOIN meters m ON m.device_id = f.meter_id
     LEFT JOIN LATERAL (SELECT register_milli FROM readings r
                        WHERE r.meter_id = f.meter_id AND r.read_at < f.first_at
                        ORDER BY r.read_at DESC LIMIT 1) p ON true`,
  );
  await tx.query(
    `UPDATE import_rows r SET value = (COALESCE(b.base, 0) + c.cumulative) % b.range
     FROM (SELECT seq, sum(value) OVER (PARTITION BY meter_id ORDER BY read_at ROWS UNBOUNDED PRECEDING) AS cumulative
           FROM import_rows WHERE reject IS NULL) c, import_bases b
     WHERE r.seq = c.seq AND b.meter_id = r.meter_id`,
  );
  await tx.query(
    `INSERT INTO import_rows (line, meter_id, read_at, value, start_at, quality, is_opening)
     SELECT 0, b.meter_id, b.first_start, 0, NULL, 0, true FROM import_bases b
     WHERE b.base IS NULL AND b.first_start IS NOT NULL AND b.first_start < b.first_at
       AND NOT EXISTS (SELECT 1 FROM import_rows r WHERE r.meter_id = b.meter_id AND r.read_at = b.first_start)
       AND NOT EXISTS (SELECT 1 FROM readings r WHERE r.meter_id = b.meter_id AND r.read_at = b.first_start)`,
  );
}

/**
 * Register files: a register below the one before it (in the file or already stored) is refused,
 * unless the drop is more than half the register range — the register wrapping past its last digit.
 */
export async function rejectDecreases(tx: SqlRunner): Promise<void> {
  await tx.query(
    `WITH bounds AS (
       SELECT meter_id, min(read_at) AS lo, max(read_at) AS hi FROM import_rows WHERE reject IS NULL GROUP BY meter_id
     ), combined AS (
       SELECT meter_id, read_at, value, seq FROM import_rows WHERE reject IS NULL
       UNION ALL
       SELECT r.meter_id, r.read_at, r.register_milli, NULL::int8 FROM readings r JOIN bounds b
         ON r.meter_id = b.meter_id AND r.read_at BETWEEN b.lo AND b.hi
       WHERE NOT EXISTS (SELECT 1 FROM import_rows s WHERE s.meter_id = r.meter_id AND s.read_at = r.read_at AND s.reject IS NULL)
       UNION ALL
       SELECT b.meter_id, p.read_at, p.register_milli, NULL::int8 FROM bounds b
       CROSS JOIN LATERAL (SELECT read_at, register_milli FROM readings r
                           WHERE r.meter_id = b.meter_id AND r.read_at < b.lo ORDER BY r.read_at DESC LIMIT 1) p
     ), ordered AS (
       SELECT c.seq, c.value, lag(c.value) OVER (PARTITION BY c.meter_id ORDER BY c.read_at) AS previous,
              (10::numeric ^ m.register_digits * 1000)::int8 AS range
       FROM combined c JOIN meters m ON m.device_id = c.meter_id
     )
     UPDATE import_rows r
     SET reject = 'register ' || (o.value / 1000.0)::text || ' is below the previous register ' || (o.previous / 1000.0)::text || ' (not a rollover).'
     FROM ordered o
     WHERE o.seq = r.seq AND o.value < o.previous AND o.previous - o.value <= o.range / 2`,
  );
}

/**
 * True when a stored reading of one of `meterIds` lies between that meter's first and last staged
 * instant. When none does (new data, the common case), a staged row can only follow a stored
 * reading at its meter's first instant, and no staged row can match a stored one.
 */
export async function hasStoredInRange(tx: SqlRunner, meterIds: readonly number[]): Promise<boolean> {
  const rows = await tx.query<{ found: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM unnest($1::int[]) AS m(id)
       CROSS JOIN LATERAL (SELECT min(read_at) AS lo, max(read_at) AS hi FROM import_rows s
                           WHERE s.meter_id = m.id AND s.reject IS NULL) b
       WHERE EXISTS (SELECT 1 FROM readings r WHERE r.meter_id = m.id AND r.read_at BETWEEN b.lo AND b.hi)
     ) AS found`,
    [meterIds],
  );
  return rows[0]?.found ?? true;
}

/**
 * `rejectDecreases` for a file whose rows are, per meter, in time order with no register going
 * down, and with no stored reading inside their range (see `hasStoredInRange`): then only each
 * meter's first staged row can be below the row before it, the last stored reading. Same refusals,
 * same messages, without sorting the file.
 */
export async function rejectFirstDecreases(tx: SqlRunner, meterIds: readonly number[]): Promise<void> {
  await tx.query(
    `UPDATE import_rows r
     SET reject = 'register ' || (r.value / 1000.0)::text || ' is below the previous register ' || (p.register_milli / 1000.0)::text || ' (not a rollover).'
     FROM unnest($1::int[]) AS m(id)
     CROSS JOIN LATERAL (SELECT read_at AS lo FROM import_rows s
                         WHERE s.meter_id = m.id AND s.reject IS NULL ORDER BY read_at LIMIT 1) b
     CROSS JOIN LATERAL (SELECT register_milli FROM readings x
                         WHERE x.meter_id = m.id AND x.read_at < b.lo ORDER BY x.read_at DESC LIMIT 1) p
     JOIN meters mt ON mt.device_id = m.id
     WHERE r.meter_id = m.id AND r.read_at = b.lo AND r.reject IS NULL
       AND r.value < p.register_milli
       AND p.register_milli - r.value <= (10::numeric ^ mt.register_digits * 1000)::int8 / 2`,
    [meterIds],
  );
}

export interface Comparison {
  unchanged: number;
  conflictCount: number;
  rejectedCount: number;
  openingNew: number;
  valid: number;
}

/** How the staged rows compare with what is stored: same value (unchanged), another value (conflict). */
export async function compareWithStored(tx: SqlRunner): Promise<Comparison> {
  const rows = await tx.query<Comparison>(
    `SELECT count(*) FILTER (WHERE s.reject IS NULL AND NOT s.is_opening AND r.register_milli = s.value)::int AS unchanged,
            count(*) FILTER (WHERE s.reject IS NULL AND NOT s.is_opening AND r.register_milli <> s.value)::int AS "conflictCount",
            count(*) FILTER (WHERE s.reject IS NOT NULL)::int AS "rejectedCount",
            count(*) FILTER (WHERE s.is_opening)::int AS "openingNew",
            count(*) FILTER (WHERE s.reject IS NULL AND NOT s.is_opening)::int AS valid
     FROM import_rows s
     LEFT JOIN readings r ON r.meter_id = s.meter_id AND r.read_at = s.read_at`,
  );
  return rows[0] ?? { unchanged: 0, conflictCount: 0, rejectedCount: 0, openingNew: 0, valid: 0 };
}

/** `compareWithStored` when no staged row can match a stored one (see `hasStoredInRange`): counts only. */
export async function countStaged(tx: SqlRunner): Promise<Comparison> {
  const rows = await tx.query<Comparison>(
    `SELECT 0 AS unchanged, 0 AS "conflictCount",
            count(*) FILTER (WHERE reject IS NOT NULL)::int AS "rejectedCount",
            count(*) FILTER (WHERE is_opening)::int AS "openingNew",
            count(*) FILTER (WHERE reject IS NULL AND NOT is_opening)::int AS valid
     FROM import_rows`,
  );
  return rows[0] ?? { unchanged: 0, conflictCount: 0, rejectedCount: 0, openingNew: 0, valid: 0 };
}

export async function listConflicts(tx: SqlRunner, limit: number) {
  return tx.query<{ line: number; meter_number: string; read_at: Date; stored: number; incoming: number }>(
    `SELECT s.line, m.meter_number, s.read_at, r.register_milli AS stored, s.value AS incoming
     FROM import_rows s JOIN readings r ON r.meter_id = s.meter_id AND r.read_at = s.read_at
     JOIN meters m ON m.device_id = s.meter_id
     WHERE s.reject IS NULL AND r.register_milli <> s.value ORDER BY s.line LIMIT $1`,
    [limit],
  );
}

export async function listStagedRejects(tx: SqlRunner, limit: number) {
  return tx.query<{ line: number; reject: string }>(
    'SELECT line, reject FROM import_rows WHERE reject IS NOT NULL ORDER BY line LIMIT $1',
    [limit],
  );
}

/** Stores every valid staged row; an instant already stored is left alone (reported as unchanged or a conflict). */
export async function storeStaged(tx: SqlRunner, source: number): Promise<number> {
  const rows = await tx.query<{ inserted: number }>(
    `WITH inserted AS (
       INSERT INTO readings (meter_id, read_at, register_milli, source, quality)
       SELECT meter_id, read_at, value, $1, quality FROM import_rows WHERE reject IS NULL ORDER BY meter_id, read_at
       ON CONFLICT (meter_id, read_at) DO NOTHING RETURNING 1
     ) SELECT count(*)::int AS inserted FROM inserted`,
    [source],
  );
  return rows[0]?.inserted ?? 0;
}

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) =>
  error instanceof Error && 'code' in error && error.code === UNIQUE_VIOLATION;

/**
 * `storeStaged` for rows that matched no stored reading a moment ago: a plain INSERT, which skips
 * the per-row conflict check of ON CONFLICT. Should a reading have been stored at one of those
 * instants since (a concurrent ingest), it stores nothing and answers undefined: the caller then
 * compares again and takes `storeStaged`, so the outcome is the same as going that way at once.
 */
export async function storeNewStaged(tx: SqlRunner, source: number): Promise<number | undefined> {
  await tx.query('SAVEPOINT import_store');
  try {
    const rows = await tx.query<{ inserted: number }>(
      `WITH inserted AS (
         INSERT INTO readings (meter_id, read_at, register_milli, source, quality)
         SELECT meter_id, read_at, value, $1, quality FROM import_rows WHERE reject IS NULL ORDER BY meter_id, read_at
         RETURNING 1
       ) SELECT count(*)::int AS inserted FROM inserted`,
      [source],
    );
    await tx.query('RELEASE SAVEPOINT import_store');
    return rows[0]?.inserted ?? 0;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT import_store');
    return undefined;
  }
}
