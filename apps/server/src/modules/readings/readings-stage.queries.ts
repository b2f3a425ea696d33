import { isImportReasonCode, type ImportReason } from '@cm/contracts/import-reasons.ts';
import type { SqlRunner } from '../../db/client.ts';
import { isoInstant } from './iso-instant.ts';

// Writes of readings from files and devices go through a stage: a table the batch is copied into
// (unlogged for a file, whose import runs in several transactions; temporary for a device's batch),
// checked as a whole with a few set-based statements, then stored with one INSERT per kind. Nothing
// here holds a file in memory. Kinds: 0 register, 1 interval.

/** One reading to stage: see the import's StagedRow (registers before the CT multiplier, interval energies after it). */
export interface StageLine {
  line: number;
  meterId: number;
  channel: number;
  kind: 'register' | 'interval';
  atMs: number;
  endMs: number | null;
  micro: number;
  quality: number;
}

/** A staging table's name: `import_stage_`, when it was made (ms, base 36) and a random part. */
export type StageName = `import_stage_${string}`;
const STAGE_NAME = /^import_stage_([0-9a-z]+)_([0-9a-f]+)$/;

export function newStageName(nowMs: number, random: string): StageName {
  return `import_stage_${nowMs.toString(36)}_${random}`;
}

/** `temporary`: dropped at commit (a batch stored in one transaction). */
export async function createStage(db: SqlRunner, stage: StageName, temporary = false): Promise<void> {
  await db.query(
    `CREATE ${temporary ? 'TEMP' : 'UNLOGGED'} TABLE ${stage} (
       seq int8 GENERATED ALWAYS AS IDENTITY, line int NOT NULL, meter_id int NOT NULL, channel int2 NOT NULL,
       kind int2 NOT NULL, at timestamptz NOT NULL, end_at timestamptz, value int8 NOT NULL, quality int2 NOT NULL,
       reject text
     )${temporary ? ' ON COMMIT DROP' : ''}`,
  );
}

export async function dropStage(db: SqlRunner, stage: StageName): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS ${stage}`);
}

/** Stages older than `maxAgeMs` (left by a server that stopped mid-import; nothing of them was stored). */
export async function dropLeftoverStages(db: SqlRunner, nowMs: number, maxAgeMs: number): Promise<void> {
  const rows = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname LIKE 'import\\_stage\\_%'`,
  );
  for (const { name } of rows) {
    const match = STAGE_NAME.exec(name);
    if (match && nowMs - Number.parseInt(match[1] ?? '', 36) > maxAgeMs)
      await db.query(`DROP TABLE IF EXISTS ${name}`);
  }
}

/** COPY text format, one row per line. */
export function copyLine(row: StageLine): string {
  const end = row.endMs === null ? '\\N' : isoInstant(row.endMs);
  const kind = row.kind === 'register' ? 0 : 1;
  return `${row.line}\t${row.meterId}\t${row.channel}\t${kind}\t${isoInstant(row.atMs)}\t${end}\t${row.micro}\t${row.quality}\n`;
}

export const copyStage = (stage: StageName) =>
  `COPY ${stage} (line, meter_id, channel, kind, at, end_at, value, quality) FROM STDIN`;

export async function indexStage(tx: SqlRunner, stage: StageName): Promise<void> {
  await tx.query(`CREATE INDEX ON ${stage} (meter_id, channel, kind, at, seq)`);
  await tx.query(`ANALYZE ${stage}`);
}

/** The time the staged rows span (for the readings tables' partitions). */
export async function stagedSpan(
  tx: SqlRunner,
  stage: StageName,
): Promise<{ lo: Date | null; hi: Date | null }> {
  const rows = await tx.query<{ lo: Date | null; hi: Date | null }>(
    `SELECT min(at) AS lo, max(coalesce(end_at, at)) AS hi FROM ${stage}`,
  );
  return rows[0] ?? { lo: null, hi: null };
}

/**
 * A refusal written by SQL: the code of `import-reasons.ts` and its values as JSON text in the
 * stage's `reject` column, read back by `readReject`.
 */
const REASON = (code: string, params: string) =>
  `json_build_object('code', ${code}, 'params', json_build_object(${params}))::text`;

/** A `reject` column's reason (JSON written by REASON). */
export function readReject(text: string): ImportReason {
  const parsed: unknown = JSON.parse(text);
  const code = typeof parsed === 'object' && parsed !== null && 'code' in parsed ? String(parsed.code) : '';
  const params = typeof parsed === 'object' && parsed !== null && 'params' in parsed ? parsed.params : {};
  if (!isImportReasonCode(code)) throw new Error(`unknown refusal code in the stage: ${code}`);
  return { code, params: (params ?? {}) as ImportReason['params'] };
}

/** Two rows of the file for one meter, channel and instant (or interval start): the first is kept, the others refused. */
export async function rejectInFileDuplicates(tx: SqlRunner, stage: StageName): Promise<void> {
  await tx.query(
    `UPDATE ${stage} r
     SET reject = ${REASON(
       `CASE WHEN r.value = f.value AND r.end_at IS NOT DISTINCT FROM f.end_at THEN 'duplicateLine' ELSE 'conflictingLine' END`,
       `'line', f.line`,
     )}
     FROM (SELECT DISTINCT ON (meter_id, channel, kind, at) meter_id, channel, kind, at, seq, line, value, end_at
           FROM ${stage} ORDER BY meter_id, channel, kind, at, seq) f
     WHERE r.meter_id = f.meter_id AND r.channel = f.channel AND r.kind = f.kind AND r.at = f.at AND r.seq <> f.seq`,
  );
}

/**
 * Registers never go down, except when one wraps past its last digit (a drop of more than half
 * the register range). Stored registers are trusted: first, a register of the file below the
 * stored one before it, or above the stored one after it, is refused (either would make a stored
 * reading a fall); then, among what is left, a register below the one before it in the file.
 *
 * `keepsStored` (no corrections): a file register at an instant already stored never replaces it,
 * so it is no fall: it is left to the comparison (unchanged, or a conflict), and the stored one
 * stays a neighbour of the others (issue 34: such a line was refused as below an older register).
 */
export async function rejectRegisterDecreases(
  tx: SqlRunner,
  stage: StageName,
  storedInside: boolean,
  mayFallInFile: boolean,
  keepsStored = true,
): Promise<void> {
  if (storedInside) await rejectAgainstStoredRegisters(tx, stage, keepsStored);
  else await rejectAgainstOuterRegisters(tx, stage);
  // Refusing rows leaves registers that never go down still never going down.
  if (mayFallInFile) await rejectFallsInFile(tx, stage, storedInside && keepsStored);
}

/** A staged register row `alias` whose instant is already stored for its meter and channel. */
const AT_STORED = (alias: string) =>
  `EXISTS (SELECT 1 FROM register_readings x WHERE x.meter_id = ${alias}.meter_id
     AND x.channel = ${alias}.channel AND x.read_at = ${alias}.at)`;

const REGISTER_TEXT = (column: string) => `(${column} / 1000000.0)::float8`;
const UTC_TEXT = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
const BELOW = (value: string, previous: string) =>
  REASON(`'belowPrevious'`, `'value', ${REGISTER_TEXT(value)}, 'previous', ${REGISTER_TEXT(previous)}`);
/** A fall from `a` to `b` that is not the register wrapping past its last digit. */
const FALLS = (a: string, b: string, range: string) => `(${b} < ${a} AND ${a} - ${b} <= ${range} / 2)`;
const RANGE = '(10::numeric ^ m.register_digits * 1000000)::int8';

/**
 * A file register against its stored neighbours `j` (previous, next, next_at, range): whether it
 * makes a stored reading a fall, and the reason given.
 */
const BETWEEN_STORED = {
  fails: (value: string) =>
    `(${FALLS('j.previous', value, 'j.range')} OR ${FALLS(value, 'j.next', 'j.range')})`,
  reason: (value: string) => `CASE
       WHEN ${FALLS('j.previous', value, 'j.range')} THEN ${BELOW(value, 'j.previous')}
       ELSE ${REASON(
         `'aboveNextStored'`,
         `'value', ${REGISTER_TEXT(value)}, 'next', ${REGISTER_TEXT('j.next')}, 'nextAt', ${UTC_TEXT('j.next_at')}`,
       )}
       END`,
};

/** Per meter and channel, the time the file's registers span (lo, hi): the CTE `bounds`. */
const REGISTER_BOUNDS = (stage: StageName) => `bounds AS (
       SELECT meter_id, channel, min(at) AS lo, max(at) AS hi FROM ${stage}
       WHERE kind = 0 AND reject IS NULL GROUP BY meter_id, channel
     )`;
/** The stored register just before a `bounds` row's span, and the one just after it (LATERAL). */
const STORED_BEFORE = `(SELECT read_at, value_micro FROM register_readings r
       WHERE r.meter_id = b.meter_id AND r.channel = b.channel AND r.read_at < b.lo
       ORDER BY r.read_at DESC LIMIT 1)`;
const STORED_AFTER = `(SELECT read_at, value_micro FROM register_readings r
       WHERE r.meter_id = b.meter_id AND r.channel = b.channel AND r.read_at > b.hi
       ORDER BY r.read_at LIMIT 1)`;

async function rejectAgainstStoredRegisters(
  tx: SqlRunner,
  stage: StageName,
  keepsStored: boolean,
): Promise<void> {
  // Each file register between its stored neighbours: a stored row starts a new count going
  // forwards (for the previous one) and backwards (for the next one), and every file row shares
  // its count with the stored row that started it.
  await tx.query(
    `WITH ${REGISTER_BOUNDS(stage)}, combined AS (
       SELECT s.meter_id, s.channel, s.at, s.value, s.seq FROM ${stage} s WHERE s.kind = 0 AND s.reject IS NULL
         ${keepsStored ? `AND NOT ${AT_STORED('s')}` : ''}
       UNION ALL
       SELECT r.meter_id, r.channel, r.read_at, r.value_micro, NULL::int8 FROM register_readings r JOIN bounds b
         ON r.meter_id = b.meter_id AND r.channel = b.channel AND r.read_at BETWEEN b.lo AND b.hi
       ${
         keepsStored
           ? ''
           : `WHERE NOT EXISTS (SELECT 1 FROM ${stage} s WHERE s.meter_id = r.meter_id AND s.channel = r.channel
                         AND s.kind = 0 AND s.at = r.read_at AND s.reject IS NULL)`
       }
       UNION ALL
       SELECT b.meter_id, b.channel, p.read_at, p.value_micro, NULL::int8 FROM bounds b
       CROSS JOIN LATERAL ${STORED_BEFORE} p
       UNION ALL
       SELECT b.meter_id, b.channel, n.read_at, n.value_micro, NULL::int8 FROM bounds b
       CROSS JOIN LATERAL ${STORED_AFTER} n
     ), counted AS (
       SELECT *,
              count(*) FILTER (WHERE seq IS NULL) OVER (PARTITION BY meter_id, channel ORDER BY at) AS before_group,
              count(*) FILTER (WHERE seq IS NULL) OVER (PARTITION BY meter_id, channel ORDER BY at DESC) AS after_group
       FROM combined
     ), neighbours AS (
       SELECT seq, meter_id, value,
              max(value) FILTER (WHERE seq IS NULL) OVER (PARTITION BY meter_id, channel, before_group) AS previous,
              max(value) FILTER (WHERE seq IS NULL) OVER (PARTITION BY meter_id, channel, after_group) AS next,
              max(at) FILTER (WHERE seq IS NULL) OVER (PARTITION BY meter_id, channel, after_group) AS next_at
       FROM counted
     ), judged AS (
       SELECT o.*, ${RANGE} AS range FROM neighbours o JOIN meters m ON m.device_id = o.meter_id WHERE o.seq IS NOT NULL
     )
     UPDATE ${stage} r
     SET reject = ${BETWEEN_STORED.reason('j.value')}
     FROM judged j
     WHERE j.seq = r.seq AND ${BETWEEN_STORED.fails('j.value')}`,
  );
}

/**
 * The same check when no stored register lies inside the file's time of any meter and channel (a
 * new stretch of data, the common case): every file register has the same two stored neighbours,
 * the last one before the file and the first one after it, so no window over the rows is needed.
 */
async function rejectAgainstOuterRegisters(tx: SqlRunner, stage: StageName): Promise<void> {
  await tx.query(
    // Materialized: a row per meter and channel with a stored neighbour, found before the file's
    // rows are joined (inlined, every row went through the neighbour lookups and the filter).
    `WITH ${REGISTER_BOUNDS(stage)}, outer_neighbours AS MATERIALIZED (
       SELECT b.meter_id, b.channel, p.value_micro AS previous, n.value_micro AS next, n.read_at AS next_at, ${RANGE} AS range
       FROM bounds b JOIN meters m ON m.device_id = b.meter_id
       LEFT JOIN LATERAL ${STORED_BEFORE} p ON true
       LEFT JOIN LATERAL ${STORED_AFTER} n ON true
       -- A meter with nothing stored around the file's time (new data) has nothing to fall against.
       WHERE p.value_micro IS NOT NULL OR n.value_micro IS NOT NULL
     )
     UPDATE ${stage} r
     SET reject = ${BETWEEN_STORED.reason('r.value')}
     FROM outer_neighbours j
     WHERE r.kind = 0 AND r.reject IS NULL AND r.meter_id = j.meter_id AND r.channel = j.channel
       AND ${BETWEEN_STORED.fails('r.value')}`,
  );
}

/**
 * Stored neighbours are checked already: what is left is a file register below the one before it in
 * the file. `skipsStoredInstants`: rows at instants already stored are not stored, so they neither
 * fall nor count as the one before.
 */
async function rejectFallsInFile(
  tx: SqlRunner,
  stage: StageName,
  skipsStoredInstants: boolean,
): Promise<void> {
  await tx.query(
    `WITH ordered AS (
       SELECT s.seq, s.value, lag(s.value) OVER w AS previous, ${RANGE} AS range
       FROM ${stage} s JOIN meters m ON m.device_id = s.meter_id
       WHERE s.kind = 0 AND s.reject IS NULL ${skipsStoredInstants ? `AND NOT ${AT_STORED('s')}` : ''}
       WINDOW w AS (PARTITION BY s.meter_id, s.channel ORDER BY s.at)
     )
     UPDATE ${stage} r SET reject = ${BELOW('o.value', 'o.previous')}
     FROM ordered o
     WHERE o.seq = r.seq AND ${FALLS('o.previous', 'o.value', 'o.range')}`,
  );
}

/**
 * Intervals: one that overlaps another of the file or a stored one (other than the stored one with
 * the same start, which is compared instead) is refused: a meter's intervals never overlap.
 */
export async function rejectIntervalOverlaps(tx: SqlRunner, stage: StageName): Promise<void> {
  await tx.query(
    `WITH bounds AS (
       SELECT meter_id, channel, min(at) AS lo, max(end_at) AS hi FROM ${stage}
       WHERE kind = 1 AND reject IS NULL GROUP BY meter_id, channel
     ), combined AS (
       SELECT meter_id, channel, at, end_at, seq, line FROM ${stage} WHERE kind = 1 AND reject IS NULL
       UNION ALL
       SELECT i.meter_id, i.channel, i.start_at, i.end_at, NULL::int8, NULL::int FROM interval_readings i JOIN bounds b
         ON i.meter_id = b.meter_id AND i.channel = b.channel AND i.start_at < b.hi AND i.start_at >= b.lo - interval '32 days'
       WHERE i.end_at > b.lo AND NOT EXISTS (
         SELECT 1 FROM ${stage} s WHERE s.meter_id = i.meter_id AND s.channel = i.channel AND s.kind = 1
           AND s.at = i.start_at AND s.reject IS NULL)
     ), ordered AS (
       SELECT seq, at, lag(end_at) OVER w AS previous_end, lag(at) OVER w AS previous_at, lag(line) OVER w AS previous_line
       FROM combined WINDOW w AS (PARTITION BY meter_id, channel ORDER BY at, seq)
     )
     UPDATE ${stage} r
     SET reject = CASE WHEN o.previous_line IS NULL
                  THEN ${REASON(`'overlapsStored'`, `'at', ${UTC_TEXT('o.previous_at')}`)}
                  ELSE ${REASON(`'overlapsLine'`, `'line', o.previous_line`)} END
     FROM ordered o
     WHERE o.seq = r.seq AND o.previous_end > o.at`,
  );
}

export interface Comparison {
  /** Same value and quality as stored. */
  unchanged: number;
  /** Another value or quality than stored. */
  differing: number;
  rejected: number;
  valid: number;
}

/** How the staged rows compare with what is stored at the same meter, channel and instant (interval start). */
export async function compareWithStored(tx: SqlRunner, stage: StageName): Promise<Comparison> {
  const rows = await tx.query<Comparison>(
    `SELECT count(*) FILTER (WHERE s.reject IS NULL AND stored.value = s.value AND stored.quality = s.quality
                             AND stored.end_at IS NOT DISTINCT FROM s.end_at)::int AS unchanged,
            count(*) FILTER (WHERE ${DIFFERS_FROM_STORED})::int AS differing,
            count(*) FILTER (WHERE s.reject IS NOT NULL)::int AS rejected,
            count(*) FILTER (WHERE s.reject IS NULL)::int AS valid
     FROM ${stage} s ${STORED_JOIN}`,
  );
  return rows[0] ?? { unchanged: 0, differing: 0, rejected: 0, valid: 0 };
}

/** The comparison of rows that meet nothing stored: none unchanged, none differing. */
export async function countStaged(tx: SqlRunner, stage: StageName): Promise<Comparison> {
  const rows = await tx.query<Comparison>(
    `SELECT 0 AS unchanged, 0 AS differing,
            count(*) FILTER (WHERE reject IS NOT NULL)::int AS rejected,
            count(*) FILTER (WHERE reject IS NULL)::int AS valid
     FROM ${stage}`,
  );
  return rows[0] ?? { unchanged: 0, differing: 0, rejected: 0, valid: 0 };
}

// The stored value at a staged row's meter, channel and instant (interval start), whichever kind.
const STORED_JOIN = `LEFT JOIN LATERAL (
  SELECT value_micro AS value, quality, NULL::timestamptz AS end_at FROM register_readings r
  WHERE s.kind = 0 AND r.meter_id = s.meter_id AND r.channel = s.channel AND r.read_at = s.at
  UNION ALL
  SELECT energy_micro, quality, end_at FROM interval_readings i
  WHERE s.kind = 1 AND i.meter_id = s.meter_id AND i.channel = s.channel AND i.start_at = s.at
) stored ON true`;

/**
 * A staged row (s) that meets a stored reading (stored, STORED_JOIN) with another value, quality
 * or end: a conflict, or with corrections a correction. A row that meets nothing stored is new,
 * never "different" (its end compared with a missing one would be).
 */
const DIFFERS_FROM_STORED = `s.reject IS NULL AND stored.value IS NOT NULL
  AND (stored.value <> s.value OR stored.quality <> s.quality OR stored.end_at IS DISTINCT FROM s.end_at)`;

/** When no stored reading lies in the range of any staged meter and channel, no staged row can match a stored one. */
export async function hasStoredInRange(tx: SqlRunner, stage: StageName): Promise<boolean> {
  const rows = await tx.query<{ found: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM (SELECT meter_id, channel, kind, min(at) AS lo, max(coalesce(end_at, at)) AS hi
                      FROM ${stage} WHERE reject IS NULL GROUP BY 1, 2, 3) b
       WHERE (b.kind = 0 AND EXISTS (SELECT 1 FROM register_readings r WHERE r.meter_id = b.meter_id
                                     AND r.channel = b.channel AND r.read_at BETWEEN b.lo AND b.hi))
          OR (b.kind = 1 AND EXISTS (SELECT 1 FROM interval_readings i WHERE i.meter_id = b.meter_id
                                     AND i.channel = b.channel AND i.start_at < b.hi AND i.end_at > b.lo))
     ) AS found`,
  );
  return rows[0]?.found ?? true;
}

export async function listDiffering(tx: SqlRunner, stage: StageName, limit: number) {
  return tx.query<{ line: number; meter_number: string; at: Date; stored: number; incoming: number }>(
    `SELECT s.line, m.meter_number, s.at, stored.value AS stored, s.value AS incoming
     FROM ${stage} s ${STORED_JOIN} JOIN meters m ON m.device_id = s.meter_id
     WHERE ${DIFFERS_FROM_STORED}
     ORDER BY s.line LIMIT $1`,
    [limit],
  );
}

export async function listStagedRejects(tx: SqlRunner, stage: StageName, limit: number) {
  return tx.query<{ line: number; reject: string }>(
    `SELECT line, reject FROM ${stage} WHERE reject IS NOT NULL ORDER BY line LIMIT $1`,
    [limit],
  );
}

/** The (meter, channel) pairs of the valid staged rows. */
export async function stagedChannels(
  tx: SqlRunner,
  stage: StageName,
): Promise<Array<{ meterId: number; channel: number }>> {
  const rows = await tx.query<{ meter_id: number; channel: number }>(
    `SELECT DISTINCT meter_id, channel FROM ${stage} WHERE reject IS NULL`,
  );
  return rows.map((row) => ({ meterId: row.meter_id, channel: row.channel }));
}

/** How many rows a statement stored, and the meters they are of. */
export interface PerMeter {
  count: number;
  meterIds: number[];
}
type PerMeterRow = { meter_id: number; n: number };
/** Counts a data-modifying CTE's rows (`RETURNING meter_id`) per meter. */
const COUNT_PER_METER = (cte: string) => `SELECT meter_id, count(*)::int AS n FROM ${cte} GROUP BY meter_id`;
const perMeter = (rows: readonly PerMeterRow[]): PerMeter => ({
  count: rows.reduce((sum, row) => sum + row.n, 0),
  meterIds: [...new Set(rows.map((row) => row.meter_id))],
});

/**
 * Stores every valid staged row that is new; an instant already stored is left alone (reported as
 * unchanged or a conflict). `isNew`: no staged row can match a stored one, so a plain INSERT.
 * No foreign key checks each row's meter (schema.ts): the meters are locked against deletion here,
 * once each, until commit, and rows of a meter deleted in the meantime are not stored (its
 * readings would have been deleted with it).
 */
export async function storeStaged(
  tx: SqlRunner,
  stage: StageName,
  source: number,
  isNew: boolean,
): Promise<PerMeter> {
  const held = await tx.query<{ device_id: number }>(
    `SELECT device_id FROM meters
     WHERE device_id IN (SELECT DISTINCT meter_id FROM ${stage} WHERE reject IS NULL)
     ORDER BY device_id FOR KEY SHARE`,
  );
  const meterIds = held.map((row) => row.device_id);
  const onConflict = isNew ? '' : 'ON CONFLICT DO NOTHING';
  const registers = await tx.query<PerMeterRow>(
    `WITH inserted AS (
       INSERT INTO register_readings (meter_id, channel, read_at, value_micro, quality, source)
       SELECT meter_id, channel, at, value, quality, $1 FROM ${stage}
       WHERE kind = 0 AND reject IS NULL AND meter_id = ANY($2::int[])
       ORDER BY meter_id, channel, at ${onConflict} RETURNING meter_id
     ) ${COUNT_PER_METER('inserted')}`,
    [source, meterIds],
  );
  const intervals = await tx.query<PerMeterRow>(
    `WITH inserted AS (
       INSERT INTO interval_readings (meter_id, channel, start_at, end_at, energy_micro, quality, source)
       SELECT meter_id, channel, at, end_at, value, quality, $1 FROM ${stage}
       WHERE kind = 1 AND reject IS NULL AND meter_id = ANY($2::int[])
       ORDER BY meter_id, channel, at ${onConflict} RETURNING meter_id
     ) ${COUNT_PER_METER('inserted')}`,
    [source, meterIds],
  );
  return perMeter([...registers, ...intervals]);
}

/**
 * Corrections: every staged row whose stored value (or quality) differs replaces it; the replaced
 * value is kept in reading_revisions with who and why. Answers how many were corrected.
 */
export async function correctStaged(
  tx: SqlRunner,
  stage: StageName,
  actor: { userId: number | null; apiKeyId: number | null },
  reason: string,
): Promise<PerMeter> {
  const params = [actor.userId, actor.apiKeyId, reason];
  await tx.query(
    `INSERT INTO reading_revisions (meter_id, channel, kind, at, end_at, old_micro, old_quality, new_micro, new_quality,
                                    actor_user_id, actor_api_key_id, reason)
     SELECT s.meter_id, s.channel, s.kind, s.at, stored.end_at, stored.value, stored.quality, s.value, s.quality, $1, $2, $3
     FROM ${stage} s ${STORED_JOIN}
     WHERE ${DIFFERS_FROM_STORED}`,
    params,
  );
  const registers = await tx.query<PerMeterRow>(
    `WITH updated AS (
       UPDATE register_readings r SET value_micro = s.value, quality = s.quality, revision = r.revision + 1
       FROM ${stage} s
       WHERE s.kind = 0 AND s.reject IS NULL AND r.meter_id = s.meter_id AND r.channel = s.channel AND r.read_at = s.at
         AND (r.value_micro <> s.value OR r.quality <> s.quality) RETURNING r.meter_id
     ) ${COUNT_PER_METER('updated')}`,
  );
  const intervals = await tx.query<PerMeterRow>(
    `WITH updated AS (
       UPDATE interval_readings i SET energy_micro = s.value, end_at = s.end_at, quality = s.quality, revision = i.revision + 1
       FROM ${stage} s
       WHERE s.kind = 1 AND s.reject IS NULL AND i.meter_id = s.meter_id AND i.channel = s.channel AND i.start_at = s.at
         AND (i.energy_micro <> s.value OR i.quality <> s.quality OR i.end_at <> s.end_at) RETURNING i.meter_id
     ) ${COUNT_PER_METER('updated')}`,
  );
  return perMeter([...registers, ...intervals]);
}

/** Each staged row's outcome, by line: refused (why), the same as stored, another than stored (the stored value), or new. */
export async function listStageOutcomes(tx: SqlRunner, stage: StageName) {
  return tx.query<{ line: number; reject: string | null; stored: number | null; same: boolean }>(
    `SELECT s.line, s.reject, stored.value AS stored,
            coalesce(stored.value = s.value AND stored.quality = s.quality AND stored.end_at IS NOT DISTINCT FROM s.end_at, false) AS same
     FROM ${stage} s ${STORED_JOIN} ORDER BY s.line`,
  );
}
