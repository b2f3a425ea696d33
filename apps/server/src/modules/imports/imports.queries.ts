import type { SqlRunner } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { importJobs, importMappings } from '../../db/schema.ts';
import { jsonbText } from './printable.ts';

// The only SQL on import_jobs and import_mappings.

export type ImportJobRow = RowOf<typeof importJobs>;
export type ImportMappingRow = RowOf<typeof importMappings>;

const jobColumns = `id, status, file_name, bytes, detection, source, phase, rows_read, bytes_read, report, error,
  created_by, api_key_id, created_at, started_at, finished_at, heartbeat_at, cancel_requested`;

export async function insertJob(
  db: SqlRunner,
  job: {
    id: string;
    fileName: string | null;
    bytes: number;
    detection: unknown;
    createdBy: number | null;
    apiKeyId: number | null;
  },
): Promise<ImportJobRow> {
  const rows = await db.query<ImportJobRow>(
    `INSERT INTO import_jobs (id, status, file_name, bytes, detection, created_by, api_key_id)
     VALUES ($1, 'uploaded', $2, $3, $4, $5, $6) RETURNING ${jobColumns}`,
    [job.id, job.fileName, job.bytes, jsonbText(job.detection), job.createdBy, job.apiKeyId],
  );
  const row = rows[0];
  if (!row) throw new Error('insert into import_jobs returned no row');
  return row;
}

export async function findJob(db: SqlRunner, id: string): Promise<ImportJobRow | undefined> {
  const rows = await db.query<ImportJobRow>(`SELECT ${jobColumns} FROM import_jobs WHERE id = $1`, [id]);
  return rows[0];
}

export async function listJobs(db: SqlRunner, limit: number): Promise<ImportJobRow[]> {
  return db.query<ImportJobRow>(
    `SELECT ${jobColumns} FROM import_jobs ORDER BY created_at DESC, id LIMIT $1`,
    [limit],
  );
}

/** Queues an uploaded job with how to run it; false when it is not (or no longer) uploaded. */
export async function queueJob(db: SqlRunner, id: string, source: unknown): Promise<boolean> {
  const rows = await db.query(
    `UPDATE import_jobs SET status = 'queued', source = $2 WHERE id = $1 AND status = 'uploaded' RETURNING 1`,
    [id, jsonbText(source)],
  );
  return rows.length > 0;
}

/** Takes a queued job to run it here: false when another process took it first, or it was cancelled. */
export async function claimJob(db: SqlRunner, id: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE import_jobs SET status = 'running', phase = 'reading', started_at = coalesce(started_at, now()),
       heartbeat_at = now(), rows_read = 0, bytes_read = 0
     WHERE id = $1 AND status = 'queued' AND NOT cancel_requested RETURNING 1`,
    [id],
  );
  return rows.length > 0;
}

/** Where a running job is; answers whether it was asked to stop. */
export async function noteProgress(
  db: SqlRunner,
  id: string,
  progress: { phase: string; rowsRead: number; bytesRead: number },
): Promise<boolean> {
  const rows = await db.query<{ cancel_requested: boolean }>(
    `UPDATE import_jobs SET phase = $2, rows_read = $3, bytes_read = $4, heartbeat_at = now()
     WHERE id = $1 RETURNING cancel_requested`,
    [id, progress.phase, progress.rowsRead, progress.bytesRead],
  );
  return rows[0]?.cancel_requested ?? false;
}

export async function finishJob(
  db: SqlRunner,
  id: string,
  outcome: { status: 'done' | 'refused' | 'failed' | 'cancelled'; report: unknown; error: string | null },
): Promise<void> {
  await db.query(
    `UPDATE import_jobs SET status = $2, report = $3, error = $4, phase = NULL, finished_at = now(), heartbeat_at = NULL
     WHERE id = $1`,
    [id, outcome.status, outcome.report === null ? null : jsonbText(outcome.report), outcome.error],
  );
}

/** Asks a job to stop: a queued or uploaded one is cancelled at once, a running one at its next batch. */
export async function requestCancel(db: SqlRunner, id: string): Promise<void> {
  await db.query(
    `UPDATE import_jobs SET cancel_requested = true,
       status = CASE WHEN status IN ('uploaded', 'queued') THEN 'cancelled' ELSE status END,
       finished_at = CASE WHEN status IN ('uploaded', 'queued') THEN now() ELSE finished_at END
     WHERE id = $1 AND status IN ('uploaded', 'queued', 'running')`,
    [id],
  );
}

/**
 * Jobs to run: queued ones, and running ones whose process stopped (no heartbeat for
 * `staleSeconds`), put back in the queue: nothing of a job is stored before its last transaction
 * commits, so running it again from its file is safe.
 */
export async function requeueStale(db: SqlRunner, staleSeconds: number): Promise<string[]> {
  await db.query(
    `UPDATE import_jobs SET status = 'queued', phase = NULL
     WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => $1)`,
    [staleSeconds],
  );
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM import_jobs WHERE status = 'queued' AND NOT cancel_requested ORDER BY created_at`,
  );
  return rows.map((row) => row.id);
}

/** Uploaded files never started within `hours`: answers their ids (their files go) and marks them cancelled. */
export async function expireUploads(db: SqlRunner, hours: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE import_jobs SET status = 'cancelled', finished_at = now(), error = 'never started; the upload was removed'
     WHERE status = 'uploaded' AND created_at < now() - make_interval(hours => $1) RETURNING id`,
    [hours],
  );
  return rows.map((row) => row.id);
}

/** Jobs whose file is still needed: not started yet, waiting to run, or running. */
export async function liveJobIds(db: SqlRunner): Promise<Set<string>> {
  const rows = await db.query<{ id: string }>(
    "SELECT id FROM import_jobs WHERE status IN ('uploaded', 'queued', 'running')",
  );
  return new Set(rows.map((row) => row.id));
}

export async function listMappings(db: SqlRunner): Promise<ImportMappingRow[]> {
  return db.query<ImportMappingRow>('SELECT name, mapping, updated_at FROM import_mappings ORDER BY name');
}

export async function upsertMapping(
  db: SqlRunner,
  name: string,
  mapping: unknown,
): Promise<ImportMappingRow> {
  const rows = await db.query<ImportMappingRow>(
    `INSERT INTO import_mappings (name, mapping) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET mapping = excluded.mapping, updated_at = now()
     RETURNING name, mapping, updated_at`,
    [name, jsonbText(mapping)],
  );
  const row = rows[0];
  if (!row) throw new Error('upsert into import_mappings returned no row');
  return row;
}

export async function deleteMapping(db: SqlRunner, name: string): Promise<boolean> {
  return (await db.query('DELETE FROM import_mappings WHERE name = $1 RETURNING 1', [name])).length > 0;
}
