// The only SQL on register_readings, interval_readings, reading_chunks and reading_revisions:
// other modules go through the readings module (readings-store.ts, readings.service.ts).

import type { SqlRunner } from '../../db/client.ts';
import type { ReadingKind } from './channels.ts';
import { nextUtcMonth } from './utc-month.ts';

/** Same key as the invalidation triggers' lock (migration 0005): a chunk is built while no write to its meter is in flight. */
const CHUNK_LOCK = 4_242_002;

const splitNumbers = (column: unknown): number[] =>
  typeof column === 'string' && column.length > 0 ? column.split(',').map(Number) : [];

/**
 * Statements that make a connection load the readings tables' partitions and their indexes into
 * its catalog cache (planning a query on each parent without pruning), as its first query on them
 * would: run on every connection when the server starts (Db.warmUp).
 */
export const READINGS_CATALOG_WARM_UP = (
  ['register_readings', 'interval_readings', 'reading_chunks'] as const
).map((table) => `EXPLAIN SELECT 1 FROM ${table} WHERE meter_id = 0`);

/** A meter's register readings in [from, to] (or [from, to) when `end` is exclusive) as columns. */
export async function findRegisters(
  db: SqlRunner,
  meterId: number,
  channel: number,
  from: Date,
  to: Date,
  end: 'inclusive' | 'exclusive' = 'inclusive',
) {
  // Rows travel as comma-separated strings instead of thousands of result rows: per-row overhead
  // dominates otherwise.
  const rows = await db.queryArrays(
    `SELECT string_agg(t::text, ','), string_agg(v::text, ','), string_agg(q::text, ',')
     FROM (SELECT (date_part('epoch', read_at) * 1000)::int8 AS t, value_micro AS v, quality + 4 * (revision > 0)::int AS q
           FROM register_readings WHERE meter_id = $1 AND channel = $2 AND read_at >= $3
             AND read_at ${end === 'inclusive' ? '<=' : '<'} $4
           ORDER BY read_at) r`,
    [meterId, channel, from, to],
  );
  const [t, v, q] = rows[0] ?? [];
  return { t: splitNumbers(t), micro: splitNumbers(v), q: splitNumbers(q) };
}

/** A meter's interval readings starting in [from, to) as columns. */
export async function findIntervals(db: SqlRunner, meterId: number, channel: number, from: Date, to: Date) {
  const rows = await db.queryArrays(
    `SELECT string_agg(s::text, ','), string_agg(e::text, ','), string_agg(v::text, ','), string_agg(q::text, ',')
     FROM (SELECT (date_part('epoch', start_at) * 1000)::int8 AS s, (date_part('epoch', end_at) * 1000)::int8 AS e,
                  energy_micro AS v, quality + 4 * (revision > 0)::int AS q
           FROM interval_readings WHERE meter_id = $1 AND channel = $2 AND start_at >= $3 AND start_at < $4
           ORDER BY start_at) r`,
    [meterId, channel, from, to],
  );
  const [s, e, v, q] = rows[0] ?? [];
  return { start: splitNumbers(s), end: splitNumbers(e), micro: splitNumbers(v), q: splitNumbers(q) };
}

/** Packed columns of one month of one channel (readings-store.ts). */
export interface PackedMonth {
  rt: Uint8Array;
  rv: Uint8Array;
  rq: Uint8Array;
  it: Uint8Array;
  ie: Uint8Array;
  iv: Uint8Array;
  iq: Uint8Array;
}

/** A stored month; its bytes are left out (null) when the caller already holds that version. */
export type ChunkRow = { channel: number; month_start: Date; version: number } & {
  [K in keyof PackedMonth]: Uint8Array | null;
};

export async function findChunks(
  db: SqlRunner,
  meterId: number,
  channels: number[],
  monthStarts: Date[],
  heldVersions: number[],
): Promise<ChunkRow[]> {
  const times = monthStarts.map((month) => month.getTime());
  const first = new Date(Math.min(...times));
  const last = new Date(Math.max(...times));
  const unlessHeld = (column: keyof PackedMonth) =>
    `CASE WHEN held THEN NULL ELSE ${column} END AS ${column}`;
  return db.query<ChunkRow>(
    `SELECT channel, month_start, version, ${(['rt', 'rv', 'rq', 'it', 'ie', 'iv', 'iq'] as const).map(unlessHeld).join(', ')}
     FROM (SELECT *, version = ANY($4::int8[]) AS held FROM reading_chunks
           WHERE meter_id = $1 AND channel = ANY($2::int2[]) AND month_start = ANY($3::timestamptz[])
             AND month_start BETWEEN $5 AND $6) c`,
    // The bounds let PostgreSQL skip the other months' partitions (it cannot prune on = ANY of a
    // parameter): a year reads twelve partitions' pages, not every partition's.
    [meterId, channels, monthStarts, heldVersions, first, last],
    { prepare: 'cm_reading_chunks' },
  );
}

export async function lockMeterChunks(db: SqlRunner, meterId: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1, $2)', [CHUNK_LOCK, meterId]);
}

/** Takes the meter's chunk lock unless a write (or another packer) holds it: true when taken. */
export async function tryLockMeterChunks(db: SqlRunner, meterId: number): Promise<boolean> {
  const rows = await db.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2) AS locked', [
    CHUNK_LOCK,
    meterId,
  ]);
  return rows[0]?.locked === true;
}

/** A month waiting to be packed. */
export interface QueuedMonth {
  meter_id: number;
  channel: number;
  month_start: Date;
}

/** Up to `limit` queued months that started before `before`, newest first (the likeliest to be read). */
export function findQueuedMonths(db: SqlRunner, before: Date, limit: number): Promise<QueuedMonth[]> {
  return db.query<QueuedMonth>(
    `SELECT meter_id, channel, month_start FROM reading_chunk_queue
     WHERE month_start < $1 ORDER BY month_start DESC, meter_id, channel LIMIT $2`,
    [before, limit],
  );
}

/** Takes a month off the queue; false when another packer took it first. Callers hold the meter's chunk lock. */
export async function dequeueMonth(db: SqlRunner, month: QueuedMonth): Promise<boolean> {
  const rows = await db.query(
    `DELETE FROM reading_chunk_queue WHERE meter_id = $1 AND channel = $2 AND month_start = $3 RETURNING 1`,
    [month.meter_id, month.channel, month.month_start],
  );
  return rows.length === 1;
}

/**
 * Stores a packed month; answers its version, or undefined when another request stored it first
 * or the month has no readings partition attached (archived, or never written: then it holds no
 * readings either, and nothing is stored; the cache's year partition exists whenever the month's
 * readings partition is attached).
 */
export async function insertChunk(
  db: SqlRunner,
  meterId: number,
  chunk: { channel: number; monthStart: Date; readings: number } & PackedMonth,
): Promise<number | undefined> {
  const rows = await db.query<{ version: number }>(
    `INSERT INTO reading_chunks (meter_id, channel, month_start, readings, rt, rv, rq, it, ie, iv, iq)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11
     WHERE EXISTS (SELECT 1 FROM pg_inherits
                   WHERE inhparent = 'register_readings'::regclass
                     AND inhrelid = to_regclass('register_readings' || to_char($3::timestamptz AT TIME ZONE 'UTC', '"_p"YYYY_MM')))
     ON CONFLICT (meter_id, channel, month_start) DO NOTHING RETURNING version`,
    [
      meterId,
      chunk.channel,
      chunk.monthStart,
      chunk.readings,
      chunk.rt,
      chunk.rv,
      chunk.rq,
      chunk.it,
      chunk.ie,
      chunk.iv,
      chunk.iq,
    ],
  );
  return rows[0]?.version;
}

/**
 * Creates the monthly partitions of the readings tables for [from, to] that do not exist yet, in a
 * transaction of its own: creating a partition locks its parent briefly, so it never waits longer
 * than `lockTimeoutMs` (a long import elsewhere) and fails instead.
 */
export async function ensurePartitions(
  db: { transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> },
  from: Date,
  to: Date,
  lockTimeoutMs = 5_000,
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL lock_timeout = '${Math.max(1, Math.round(lockTimeoutMs))}ms'`);
    const rows = await tx.query<{ created: number }>(
      'SELECT cm_ensure_reading_partitions($1, $2) AS created',
      [from, to],
    );
    return rows[0]?.created ?? 0;
  });
}

/** A partition of a readings table (a UTC month) or of the chunk cache (a UTC year). */
export interface ReadingsPartition {
  parent: 'register_readings' | 'interval_readings' | 'reading_chunks';
  name: string;
  /** Its range [starts_at, ends_at). */
  starts_at: Date;
  ends_at: Date;
}

/** The partitions of the readings tables and the chunk cache whose range ends by `before`, oldest first. */
export function findPartitionsBefore(db: SqlRunner, before: Date): Promise<ReadingsPartition[]> {
  return db.query<ReadingsPartition>(
    `SELECT parent, name, bounds[1]::timestamptz AS starts_at, bounds[2]::timestamptz AS ends_at
     FROM (SELECT parent.relname AS parent, child.relname AS name,
                  regexp_match(pg_get_expr(child.relpartbound, child.oid), 'FROM \\(''([^'']+)''\\) TO \\(''([^'']+)''\\)') AS bounds
           FROM pg_inherits i
           JOIN pg_class parent ON parent.oid = i.inhparent
           JOIN pg_class child ON child.oid = i.inhrelid
           WHERE parent.relname IN ('register_readings', 'interval_readings', 'reading_chunks')) p
     WHERE bounds[2]::timestamptz <= $1
     ORDER BY starts_at, parent`,
    [before],
  );
}

/**
 * Takes a partition out for archiving: a readings month becomes a table of its own (same name,
 * same rows, to dump and drop) and its chunks leave the cache; a chunk-cache year is dropped.
 */
export async function detachPartition(db: SqlRunner, partition: ReadingsPartition): Promise<void> {
  const child = `"${partition.name.replaceAll('"', '""')}"`;
  if (partition.parent === 'reading_chunks') {
    await db.query(`DROP TABLE ${child}`);
    return;
  }
  await db.query(`ALTER TABLE "${partition.parent}" DETACH PARTITION ${child}`);
  // The cache's year outlives its months: reads must not answer an archived month from it.
  await db.query('DELETE FROM reading_chunks WHERE month_start >= $1 AND month_start < $2', [
    partition.starts_at,
    partition.ends_at,
  ]);
}

/**
 * Per meter: the last register reading of its import channel at or before `untilMs`, and the last
 * instant that channel has data for (a register or an interval's end).
 */
export async function findLastReadings(db: SqlRunner, meterIds: readonly number[], untilMs: number) {
  return db.query<{
    meter_id: number;
    read_at: Date | null;
    value_micro: number | null;
    data_at: Date | null;
  }>(
    // The bound lets PostgreSQL skip the partitions made ahead of the data instead of opening each.
    `SELECT ids.meter_id, lr.read_at, lr.value_micro,
            greatest(lr.read_at, (SELECT end_at FROM interval_readings i WHERE i.meter_id = ids.meter_id AND i.channel = 1
                                    AND i.start_at <= $2
                                  ORDER BY start_at DESC LIMIT 1)) AS data_at
     FROM unnest($1::int[]) AS ids(meter_id)
     LEFT JOIN LATERAL (SELECT read_at, value_micro FROM register_readings r WHERE r.meter_id = ids.meter_id AND r.channel = 1
                          AND r.read_at <= $2
                        ORDER BY read_at DESC LIMIT 1) lr ON true`,
    [meterIds, new Date(untilMs)],
    { prepare: 'cm_last_readings' },
  );
}

/** A meter and the newest UTC months its import channel was written to (meters, migration 0021). */
export interface LatestMonths {
  meterId: number;
  registerMonth: Date | null;
  intervalMonth: Date | null;
}

/** What findCoverage needs besides the window's end: where the meter's window may start and its interval. */
export interface CoverageOf {
  installedAt: Date;
  intervalMs: number;
}

/** What a window of a meter's import channel holds (findCoverage). */
export interface Coverage {
  first_at: Date | null;
  covered: number;
}

type LastInMonths = {
  meter_id: number;
  read_at: Date | null;
  value_micro: number | null;
  data_at: Date | null;
  found: boolean;
};

/** The dates that are there, in epoch ms. */
const instantsOf = (dates: readonly (Date | null)[]) =>
  dates.filter((date): date is Date => date !== null).map((date) => date.getTime());

/**
 * findCoverage's sums as SQL, over expressions for the meter, the window [since, until] and the
 * nominal interval; `within`, parameters around the window, lets planning prune partitions.
 */
function coverageSelect(of: {
  meter: string;
  since: string;
  until: string;
  intervalMs: string;
  within?: { from: string; to: string };
}) {
  const registersPruned = of.within ? ` AND read_at >= ${of.within.from} AND read_at <= ${of.within.to}` : '';
  const recordsPruned = of.within ? ` AND start_at >= ${of.within.from} AND start_at <= ${of.within.to}` : '';
  return `SELECT least(r.first_at, i.first_at) AS first_at,
            greatest(coalesce(r.n, 0) - 1, 0) + coalesce(i.covered_ms, 0) / ${of.intervalMs}::float8 AS covered
     FROM (SELECT min(read_at) AS first_at, count(*)::int AS n FROM register_readings
           WHERE meter_id = ${of.meter} AND channel = 1 AND read_at >= ${of.since} AND read_at <= ${of.until}${registersPruned}) r,
          (SELECT min(start_at) AS first_at, sum(extract(epoch FROM end_at - start_at) * 1000) AS covered_ms
           FROM interval_readings WHERE meter_id = ${of.meter} AND channel = 1 AND start_at >= ${of.since} AND end_at <= ${of.until}${recordsPruned}) i`;
}

/**
 * findLastReadings looking only from each meter's newest written months on, and only in the
 * partitions of those months (bounds as parameters prune the others while planning). `found`
 * is false for a meter whose month held nothing at or before the bound (its newest readings
 * deleted, or all ahead of time): findLastReadings answers for it.
 *
 * With `coverage`, also what each meter's window before its last data holds (findCoverage over
 * [max(installed, last − windowMs), last]) in the same round trip: the meter card's two lookups,
 * the second depending on the first, cost one trip to PostgreSQL instead of two. `window` is left
 * out where the last data lies past the bounds that prune the window's partitions (an interval
 * record ending after them): findCoverage reads that one.
 */
export async function findLastReadingsFromMonths(
  db: SqlRunner,
  meters: readonly LatestMonths[],
  untilMs: number,
): Promise<LastInMonths[]>;
export async function findLastReadingsFromMonths(
  db: SqlRunner,
  meters: readonly (LatestMonths & CoverageOf)[],
  untilMs: number,
  coverage: { windowMs: number },
): Promise<(LastInMonths & { window?: Coverage })[]>;
export async function findLastReadingsFromMonths(
  db: SqlRunner,
  meters: readonly (LatestMonths & Partial<CoverageOf>)[],
  untilMs: number,
  coverage?: { windowMs: number },
) {
  // From the earliest of the months to the end of the newest one (nothing was written after it), or
  // to the bound if sooner.
  const bounds = (months: (Date | null)[]) => {
    const known = instantsOf(months);
    if (known.length === 0) return [null, null];
    const monthEnd = nextUtcMonth(Math.max(...known)) - 1;
    return [new Date(Math.min(...known)), new Date(Math.min(untilMs, monthEnd))];
  };
  const registerMonths = meters.map((meter) => meter.registerMonth);
  const intervalMonths = meters.map((meter) => meter.intervalMonth);
  const registerBounds = bounds(registerMonths);
  const intervalBounds = bounds(intervalMonths);
  const params: unknown[] = [
    meters.map((meter) => meter.meterId),
    registerMonths,
    intervalMonths,
    ...registerBounds,
    ...intervalBounds,
  ];
  const latest = `SELECT ids.meter_id, lr.read_at, lr.value_micro, greatest(lr.read_at, li.end_at) AS data_at,
            (ids.register_month IS NULL OR lr.read_at IS NOT NULL) AND (ids.interval_month IS NULL OR li.end_at IS NOT NULL) AS found`;
  const lastOfEach = `LEFT JOIN LATERAL (SELECT read_at, value_micro FROM register_readings r
                        WHERE r.meter_id = ids.meter_id AND r.channel = 1 AND r.read_at >= ids.register_month
                          AND r.read_at >= $4 AND r.read_at <= $5
                        ORDER BY read_at DESC LIMIT 1) lr ON true
     LEFT JOIN LATERAL (SELECT end_at FROM interval_readings i
                        WHERE i.meter_id = ids.meter_id AND i.channel = 1 AND i.start_at >= ids.interval_month
                          AND i.start_at >= $6 AND i.start_at <= $7
                        ORDER BY start_at DESC LIMIT 1) li ON true`;
  if (!coverage)
    return db.query<LastInMonths>(
      `${latest}
     FROM unnest($1::int[], $2::timestamptz[], $3::timestamptz[]) AS ids(meter_id, register_month, interval_month)
     ${lastOfEach}`,
      params,
      { prepare: 'cm_last_readings_from_months' },
    );
  // The window starts at most windowMs before the last data, which lies in or after the earliest
  // month, and ends at the last data, at most the latest bound but for a record ending later.
  const windowFrom =
    Math.min(...instantsOf([registerBounds[0] ?? null, intervalBounds[0] ?? null])) - coverage.windowMs;
  const windowTo = Math.max(...instantsOf([registerBounds[1] ?? null, intervalBounds[1] ?? null]));
  params.push(
    meters.map((meter) => meter.installedAt),
    meters.map((meter) => meter.intervalMs),
    coverage.windowMs,
    new Date(windowFrom),
    new Date(windowTo),
  );
  const last = 'greatest(lr.read_at, li.end_at)';
  const window = coverageSelect({
    meter: 'ids.meter_id',
    since: `greatest(ids.installed_at, ${last} - make_interval(secs => $10 / 1000.0))`,
    until: last,
    intervalMs: 'ids.interval_ms',
    within: { from: '$11', to: '$12' },
  });
  const rows = await db.query<LastInMonths & Coverage>(
    `${latest}, w.first_at, w.covered
     FROM unnest($1::int[], $2::timestamptz[], $3::timestamptz[], $8::timestamptz[], $9::float8[])
          AS ids(meter_id, register_month, interval_month, installed_at, interval_ms)
     ${lastOfEach}
     LEFT JOIN LATERAL (${window}) w ON true`,
    params,
    { prepare: 'cm_last_readings_with_coverage' },
  );
  return rows.map(({ first_at, covered, ...row }) =>
    row.data_at && row.data_at.getTime() > windowTo ? row : { ...row, window: { first_at, covered } },
  );
}

/**
 * What a meter's import channel holds in the window [since, until]: the first instant with data and
 * how much time the data covers, in nominal intervals (registers: readings; records: covered time).
 */
export async function findCoverage(
  db: SqlRunner,
  meterId: number,
  since: Date,
  until: Date,
  intervalMs: number,
): Promise<Coverage> {
  const rows = await db.query<Coverage>(
    coverageSelect({ meter: '$1', since: '$2', until: '$3', intervalMs: '$4' }),
    [meterId, since, until, intervalMs],
    { prepare: 'cm_coverage_window' },
  );
  return rows[0] ?? { first_at: null, covered: 0 };
}

/**
 * Start of the earliest gap in [since, until] of a meter's import channel: register readings more
 * than 1.5 intervals apart, or time between interval records.
 */
export async function findFirstGapSince(
  db: SqlRunner,
  meterId: number,
  intervalMs: number,
  since: Date,
  until: Date,
): Promise<Date | undefined> {
  const rows = await db.query<{ gap_start: Date | null }>(
    `SELECT least(
       (SELECT min(prev_at) FROM (
          SELECT read_at, lag(read_at) OVER (ORDER BY read_at) AS prev_at FROM register_readings
          WHERE meter_id = $1 AND channel = 1 AND read_at >= $2 AND read_at <= $3) r
        WHERE read_at - prev_at > make_interval(secs => $4 * 1.5 / 1000)),
       (SELECT min(prev_end) FROM (
          SELECT start_at, lag(end_at) OVER (ORDER BY start_at) AS prev_end FROM interval_readings
          WHERE meter_id = $1 AND channel = 1 AND start_at >= $2 AND start_at <= $3) i
        WHERE start_at - prev_end >= make_interval(secs => $4 * 0.5 / 1000))
     ) AS gap_start`,
    [meterId, since, until, intervalMs],
  );
  return rows[0]?.gap_start ?? undefined;
}

/** The stored register values of a meter's import channel at, just before and just after `at` (an exchange's checks). */
export async function findRegistersAround(db: SqlRunner, meterId: number, at: Date) {
  const rows = await db.query<{ kind: 'at' | 'before' | 'after'; value_micro: number }>(
    `(SELECT 'at' AS kind, value_micro FROM register_readings WHERE meter_id = $1 AND channel = 1 AND read_at = $2)
     UNION ALL
     (SELECT 'before', value_micro FROM register_readings WHERE meter_id = $1 AND channel = 1 AND read_at < $2 ORDER BY read_at DESC LIMIT 1)
     UNION ALL
     (SELECT 'after', value_micro FROM register_readings WHERE meter_id = $1 AND channel = 1 AND read_at > $2 ORDER BY read_at LIMIT 1)`,
    [meterId, at],
  );
  return {
    atValue: rows.find((row) => row.kind === 'at')?.value_micro,
    before: rows.find((row) => row.kind === 'before')?.value_micro,
    hasLater: rows.some((row) => row.kind === 'after'),
  };
}

/** Stores one register reading (an exchange's final or opening register); true when it was new. */
export async function insertRegister(
  db: SqlRunner,
  meterId: number,
  reading: { at: Date; micro: number; source: number },
): Promise<boolean> {
  // The meter is locked against deletion until commit: no foreign key checks readings (schema.ts).
  const rows = await db.query(
    `WITH meter AS (SELECT device_id FROM meters WHERE device_id = $1 FOR KEY SHARE)
     INSERT INTO register_readings (meter_id, channel, read_at, value_micro, source)
     SELECT device_id, 1, $2, $3, $4 FROM meter
     ON CONFLICT DO NOTHING RETURNING 1`,
    [meterId, reading.at, reading.micro, reading.source],
  );
  return rows.length > 0;
}

/** A meter channel's corrections of values in [from, to) (registers at, intervals starting), newest first, with their count. */
export async function findCorrections(
  db: SqlRunner,
  meterId: number,
  channel: number,
  from: Date,
  to: Date,
  limit: number,
) {
  return db.query<{
    kind: ReadingKind;
    at: Date;
    end_at: Date | null;
    old_micro: number;
    old_quality: number;
    new_micro: number;
    new_quality: number;
    replaced_at: Date;
    actor_user_id: number | null;
    reason: string;
    total: number;
  }>(
    `SELECT kind, at, end_at, old_micro, old_quality, new_micro, new_quality, replaced_at, actor_user_id, reason,
            count(*) OVER ()::int AS total
     FROM reading_revisions WHERE meter_id = $1 AND channel = $2 AND at >= $3 AND at < $4
     ORDER BY replaced_at DESC, id DESC LIMIT $5`,
    [meterId, channel, from, to, limit],
  );
}

/** One page of a meter's import-channel register readings after `afterMs` (exclusive) up to `toMs` (inclusive): keyset paging on the primary key. */
/** One page of a channel's readings after `afterMs` (exclusive) up to `toMs`, at most `limit`, for an export. */
export interface PageAsk {
  meterId: number;
  channel: number;
  afterMs: number;
  toMs: number;
  limit: number;
}

const pageParams = (ask: PageAsk) => [ask.meterId, ask.channel, ask.afterMs, ask.toMs, ask.limit];

/** Registers read at instants in (afterMs, toMs], oldest first: [instant ms, millionths, quality]. */
export async function registersPage(
  db: SqlRunner,
  ask: PageAsk,
): Promise<Array<[ms: number, micro: number, quality: number]>> {
  const rows = await db.queryArrays(
    `SELECT (extract(epoch FROM read_at) * 1000)::float8, value_micro, quality FROM register_readings
     WHERE meter_id = $1 AND channel = $2 AND read_at > timestamptz 'epoch' + $3::int8 * interval '1 millisecond'
       AND read_at <= timestamptz 'epoch' + $4::int8 * interval '1 millisecond'
     ORDER BY read_at LIMIT $5`,
    pageParams(ask),
  );
  return rows.map((row) => [Number(row[0]), Number(row[1]), Number(row[2])]);
}

/** Interval records starting in (afterMs, toMs), oldest first: [start ms, end ms, millionths, quality]. */
export async function intervalsPage(
  db: SqlRunner,
  ask: PageAsk,
): Promise<Array<[startMs: number, endMs: number, micro: number, quality: number]>> {
  const rows = await db.queryArrays(
    `SELECT (extract(epoch FROM start_at) * 1000)::float8, (extract(epoch FROM end_at) * 1000)::float8,
       energy_micro, quality FROM interval_readings
     WHERE meter_id = $1 AND channel = $2 AND start_at > timestamptz 'epoch' + $3::int8 * interval '1 millisecond'
       AND start_at < timestamptz 'epoch' + $4::int8 * interval '1 millisecond'
     ORDER BY start_at LIMIT $5`,
    pageParams(ask),
  );
  return rows.map((row) => [Number(row[0]), Number(row[1]), Number(row[2]), Number(row[3])]);
}

/**
 * Which channels hold which kinds of readings in [fromMs, toMs] (registers at instants in it,
 * intervals starting in it, the end exclusive): one row per channel and kind found.
 */
export async function findStoredKinds(
  db: SqlRunner,
  meterId: number,
  fromMs: number,
  toMs: number,
): Promise<Array<{ channel: number; kind: ReadingKind }>> {
  const from = new Date(fromMs);
  const to = new Date(toMs);
  const exists = (table: string, column: string, end: string, channel: number) =>
    `EXISTS (SELECT 1 FROM ${table} WHERE meter_id = $1 AND channel = ${channel} AND ${column} >= $2 AND ${column} ${end} $3)`;
  const rows = await db.queryArrays(
    `SELECT ${[1, 2]
      .flatMap((channel) => [
        exists('register_readings', 'read_at', '<=', channel),
        exists('interval_readings', 'start_at', '<', channel),
      ])
      .join(', ')}`,
    [meterId, from, to],
  );
  const found = rows[0] ?? [];
  const kinds: Array<{ channel: number; kind: ReadingKind }> = [];
  for (const [index, channel] of [1, 2].entries()) {
    if (found[index * 2] === true) kinds.push({ channel, kind: 0 });
    if (found[index * 2 + 1] === true) kinds.push({ channel, kind: 1 });
  }
  return kinds;
}
