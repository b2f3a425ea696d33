import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { csvText, CSV_LINE_END } from '@cm/contracts/csv.ts';
import {
  importDetectionSchema,
  importJobSchema,
  startImportBodySchema,
  type CreatedImportMeters,
  type CreateImportMetersBody,
  type ImportJob,
  type ImportPreview,
  type ImportSource,
  type NmiMap,
  type ReconciliationQuery,
  type StoredReconciliation,
  type StartImportBody,
} from '@cm/contracts/import-jobs.ts';
import { importReportSchema } from '@cm/contracts/admin.ts';
import type { DelimitedMapping } from '@cm/contracts/import-mapping.ts';
import type { Db } from '../../db/client.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import type { Actor } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import { loadMeterFacts } from '../directory/index.ts';
import { DETECTION_BYTES, detectFormat } from './detect.ts';
import {
  claimJob,
  deleteMapping,
  expireUploads,
  findJob,
  finishJob,
  insertJob,
  liveJobIds,
  listJobs,
  listMappings,
  noteProgress,
  queueJob,
  requestCancel,
  requeueStale,
  upsertMapping,
  type ImportJobRow,
  type ImportMappingRow,
} from './imports.queries.ts';
import { CANCELLED, ImportRefused, type ImportsService } from './imports.service.ts';
import { createImportMeters } from './import-meters.ts';
import { previewImport } from './preview.ts';
import { addStored, reconcileStored } from './reconcile-stored.ts';
import { resolveSource, type ResolvedSource } from './source.ts';
import { openUpload } from './upload-open.ts';
import { formatBytes } from './upload-limit.ts';
import { spooledFile, spooledUploads, spoolUpload } from './upload-spool.ts';

const JOB_NOT_FOUND = 'Import job not found.';
// A running job whose process has not reported for this long is taken over by another.
const STALE_SECONDS = 120;
const PROGRESS_EVERY_MS = 500;
// An upload that is never started is removed after a day.
const UPLOAD_KEPT_HOURS = 24;
// A file no live job names is removed once nothing has written to it for this long (an upload
// still arriving, in this process or another on the same data folder, keeps writing).
const ORPHAN_AFTER_MS = 10 * 60_000;

/** Bounds of the upload spool: its total size, and uploads one administrator may have arriving at once. */
export interface SpoolLimits {
  maxBytes: number;
  uploadsPerUser: number;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** A readable that counts the bytes read through it. */
function counted(input: Readable, onBytes: (bytes: number) => void): Readable {
  return input.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        onBytes(chunk.length);
        done(null, chunk);
      },
    }),
  );
}

/**
 * Imports as jobs: the file is spooled (no database work waits on bytes arriving), its format
 * detected, previewed as the administrator adjusts the mapping, then run in the background one at
 * a time per process, with progress kept in the database (so any process answers it) and a
 * heartbeat; cancelled at the next batch; and, should its process stop, run again from its file
 * by another: nothing of a job is stored before its last transaction commits.
 */
export class ImportJobsService {
  private readonly queue: string[] = [];
  private running: { id: string; abort: AbortController } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private idle: Promise<void> = Promise.resolve();
  /** Uploads arriving now, per administrator. */
  private readonly uploading = new Map<number | null, number>();

  constructor(
    private readonly db: Db,
    private readonly imports: ImportsService,
    private readonly dir: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
    /** Told when a job has stored its readings (alerts are evaluated again). */
    private readonly onImported: () => void = () => {},
    private readonly spool: SpoolLimits = { maxBytes: Infinity, uploadsPerUser: Infinity },
  ) {}

  private fileOf(id: string) {
    return path.join(this.dir, `${id}.upload`);
  }

  /** Import jobs this process is running (0 or 1) and those waiting behind it. */
  backlog(): { running: number; waiting: number } {
    return { running: this.running ? 1 : 0, waiting: this.queue.length };
  }

  /** Takes up queued jobs, and those a stopped process left running; then checks every minute. */
  start(): void {
    const tick = () =>
      void this.takeUpQueued().catch((error: unknown) =>
        this.log.warn({ err: error }, 'import jobs: requeue failed'),
      );
    tick();
    void this.sweepSpool().catch((error: unknown) =>
      this.log.warn({ err: error }, 'import jobs: spool not swept'),
    );
    this.timer = setInterval(tick, 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.running?.abort.abort();
    await this.idle;
  }

  private async takeUpQueued() {
    for (const id of await requeueStale(this.db, STALE_SECONDS)) this.enqueue(id);
  }

  async upload(
    actor: Actor,
    body: Readable,
    fileName: string | undefined,
    maxBytes: number,
    declaredBytes?: number,
  ): Promise<ImportJob> {
    const id = randomUUID();
    const arriving = this.uploading.get(actor.userId) ?? 0;
    if (arriving >= this.spool.uploadsPerUser)
      throw new HttpError(
        429,
        `You already have ${arriving} uploads arriving. Wait for them to finish, then send this one.`,
        undefined,
        { 'Retry-After': '10' },
      );
    // Counted at once, before anything is awaited, so that two arriving together both count.
    this.uploading.set(actor.userId, arriving + 1);
    const spooled = await this.spoolWithin(body, maxBytes, id, declaredBytes).finally(() => {
      const left = (this.uploading.get(actor.userId) ?? 1) - 1;
      if (left > 0) this.uploading.set(actor.userId, left);
      else this.uploading.delete(actor.userId);
    });
    try {
      // A ZIP or gzip opened, UTF-16 made UTF-8, binary refused: the job's file is text.
      const { file, note } = await openUpload(spooled, maxBytes);
      const detection = detectFormat(await file.head(DETECTION_BYTES), undefined);
      const row = await this.db.transaction(async (tx) => {
        const inserted = await insertJob(tx, {
          id,
          fileName: fileName ?? null,
          bytes: file.bytes,
          detection: note ? { ...detection, reason: `${note} ${detection.reason}` } : detection,
          createdBy: actor.userId,
          apiKeyId: actor.apiKeyId,
        });
        await recordAudit(tx, actor, {
          action: 'import-job.upload',
          targetType: 'import-job',
          targetId: id,
          detail: { fileName: fileName ?? null, bytes: file.bytes },
        });
        return inserted;
      });
      return present(row);
    } catch (error) {
      await spooled.remove();
      throw error;
    }
  }

  /** Spools an upload within the room the spool has left (507 when there is none for it). */
  private async spoolWithin(body: Readable, maxBytes: number, id: string, declaredBytes?: number) {
    const used = (await spooledUploads(this.dir)).reduce((sum, file) => sum + file.bytes, 0);
    const room = this.spool.maxBytes - used;
    if (room <= 0 || (declaredBytes ?? 0) > room)
      throw new HttpError(
        507,
        `The space for uploads is full (${formatBytes(used)} of ${formatBytes(this.spool.maxBytes)} used by uploads not imported yet). Start or cancel some import jobs, then send this file again.`,
      );
    return spoolUpload(body, this.dir, Math.min(maxBytes, room), id);
  }

  async get(id: string): Promise<ImportJob> {
    const row = await findJob(this.db, id);
    if (!row) throw notFound(JOB_NOT_FOUND);
    return present(row);
  }

  async list(): Promise<{ items: ImportJob[] }> {
    return { items: (await listJobs(this.db, 50)).map(present) };
  }

  /** How the job's file will be read with `source`, its content decides the rest. */
  private async resolve(row: ImportJobRow, source: ImportSource): Promise<ResolvedSource> {
    const file = spooledFile(this.fileOf(row.id), row.bytes);
    return resolveSource(await file.head(DETECTION_BYTES), source);
  }

  async preview(id: string, source: ImportSource): Promise<ImportPreview> {
    const row = await findJob(this.db, id);
    if (!row) throw notFound(JOB_NOT_FOUND);
    if (row.status !== 'uploaded')
      throw conflict('This import has started: its file is no longer previewed.');
    const resolved = await this.resolve(row, source);
    return previewImport(
      spooledFile(this.fileOf(id), row.bytes),
      { ...source, format: resolved.format, mapping: resolved.mapping, espi: source, mdff: source },
      resolved.detection,
      await loadMeterFacts(this.db),
      (ask, kind, into) => addStored(this.db, ask, kind, into),
    );
  }

  /** A meter's stored registers against its stored intervals over local days (reconcile-stored.ts). */
  async reconciliation(query: ReconciliationQuery): Promise<StoredReconciliation> {
    return reconcileStored(this.db, query);
  }

  /** Creates the meters the file names that are not on the site (import-meters.ts), before the import. */
  async createMeters(actor: Actor, id: string, body: CreateImportMetersBody): Promise<CreatedImportMeters> {
    const row = await findJob(this.db, id);
    if (!row) throw notFound(JOB_NOT_FOUND);
    if (row.status !== 'uploaded') throw conflict('This import has started: create its meters before.');
    const resolved = await this.resolve(row, body);
    return createImportMeters(
      this.db,
      actor,
      spooledFile(this.fileOf(id), row.bytes),
      { ...body, format: resolved.format, mapping: resolved.mapping, espi: body, mdff: body },
      body,
    );
  }

  async startJob(id: string, body: StartImportBody): Promise<ImportJob> {
    const row = await findJob(this.db, id);
    if (!row) throw notFound(JOB_NOT_FOUND);
    if (row.status !== 'uploaded') throw conflict('This import has already started.');
    const request = startImportBodySchema.parse(body);
    // Refused here (400) rather than in the background: a wrong mapping or a missing meter number.
    const resolved = await this.resolve(row, request);
    if (request.saveMappingAs && resolved.mapping)
      await upsertMapping(this.db, request.saveMappingAs, resolved.mapping);
    else if (request.saveMappingAs && request.nmis && isMdff(resolved.format))
      await upsertMapping(this.db, request.saveMappingAs, { nmis: request.nmis });
    if (!(await queueJob(this.db, id, request))) throw conflict('This import has already started.');
    this.enqueue(id);
    return this.get(id);
  }

  async cancel(actor: Actor, id: string): Promise<ImportJob> {
    const row = await findJob(this.db, id);
    if (!row) throw notFound(JOB_NOT_FOUND);
    // Too late: say so rather than answer as if it were stopped (issue 34: a late cancel answered
    // 200 while everything was stored). A cancelled job asked again stays cancelled.
    if (row.status === 'done') throw conflict(CANCEL_TOO_LATE);
    if (row.status === 'refused' || row.status === 'failed') throw conflict(ALREADY_ENDED);
    await this.db.transaction(async (tx) => {
      await requestCancel(tx, id);
      await recordAudit(tx, actor, { action: 'import-job.cancel', targetType: 'import-job', targetId: id });
    });
    if (this.running?.id === id) this.running.abort.abort();
    const job = await this.get(id);
    // Cancelled before it ran: its file is no longer needed (a running job removes its own).
    if (job.status === 'cancelled') await spooledFile(this.fileOf(id), 0).remove();
    return job;
  }

  /** The refused lines of a finished job's report, as CSV (line, reason). */
  async rejectedCsv(id: string): Promise<string> {
    const row = await findJob(this.db, id);
    if (!row) throw notFound(JOB_NOT_FOUND);
    const report = row.report === null ? undefined : importReportSchema.parse(row.report);
    const lines = [
      'line,reason',
      ...(report?.rejected ?? []).map((line) => `${line.line},${csvText(line.reason)}`),
    ];
    return lines.join(CSV_LINE_END) + CSV_LINE_END;
  }

  /** Removes the files of uploads nobody started within a day, and those no live job needs. */
  async expireUploads(): Promise<number> {
    const expired = await expireUploads(this.db, UPLOAD_KEPT_HOURS);
    await Promise.all(expired.map((id) => spooledFile(this.fileOf(id), 0).remove()));
    await this.sweepSpool();
    return expired.length;
  }

  /**
   * Removes the spooled files no job waiting or running names (cancelled, failed, refused, or cut
   * by a crash before their job was written), once nothing has written to them for a while.
   * Answers how many were removed.
   */
  async sweepSpool(nowMs = Date.now()): Promise<number> {
    const files = await spooledUploads(this.dir);
    const live = await liveJobIds(this.db);
    const orphans = files.filter((file) => !live.has(file.id) && nowMs - file.modifiedMs >= ORPHAN_AFTER_MS);
    await Promise.all(orphans.map((file) => spooledFile(this.fileOf(file.id), 0).remove()));
    return orphans.length;
  }

  async mappings() {
    return { items: (await listMappings(this.db)).map(presentMapping) };
  }

  async saveMapping(
    actor: Actor,
    name: string,
    saved: { mapping?: DelimitedMapping | undefined; nmis?: NmiMap | undefined },
  ) {
    const row = await this.db.transaction(async (tx) => {
      const stored = await upsertMapping(tx, name, saved.mapping ?? { nmis: saved.nmis ?? {} });
      await recordAudit(tx, actor, {
        action: 'import-mapping.save',
        targetType: 'import-mapping',
        targetId: name,
        detail: { format: saved.mapping ? 'delimited' : 'nmis' },
      });
      return stored;
    });
    return presentMapping(row);
  }

  async removeMapping(actor: Actor, name: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await deleteMapping(tx, name))) throw notFound('No mapping has this name.');
      await recordAudit(tx, actor, {
        action: 'import-mapping.delete',
        targetType: 'import-mapping',
        targetId: name,
      });
    });
  }

  private enqueue(id: string) {
    if (this.queue.includes(id) || this.running?.id === id) return;
    this.queue.push(id);
    if (!this.running) this.idle = this.pump();
  }

  private async pump(): Promise<void> {
    for (let id = this.queue.shift(); id !== undefined; id = this.queue.shift()) {
      try {
        if (await claimJob(this.db, id)) await this.run(id);
      } catch (error) {
        this.log.error({ err: error, job: id }, 'import job failed');
        await finishJob(this.db, id, {
          status: 'failed',
          report: null,
          error: 'The import failed on the server; nothing was stored.',
        }).catch(() => undefined);
      }
    }
  }

  private async run(id: string): Promise<void> {
    const row = await findJob(this.db, id);
    if (!row) return;
    const abort = new AbortController();
    this.running = { id, abort };
    const request = startImportBodySchema.parse(row.source ?? {});
    const file = spooledFile(this.fileOf(id), row.bytes);
    let bytesRead = 0;
    let lastWrite = 0;
    let pending: Promise<void> = Promise.resolve();
    const report = (phase: string, rowsRead: number, force = false) => {
      const now = Date.now();
      if (!force && now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      pending = pending
        .then(() => noteProgress(this.db, id, { phase, rowsRead, bytesRead }))
        .then((cancelled) => {
          if (cancelled) abort.abort();
        })
        .catch((error: unknown) => this.log.warn({ err: error, job: id }, 'import job: progress not saved'));
    };
    try {
      const resolved = await this.resolve(row, request);
      const result = await this.imports.importReadings(
        { userId: row.created_by, apiKeyId: row.api_key_id },
        { open: () => counted(createReadStream(file.path), (bytes) => (bytesRead += bytes)) },
        {
          ...request,
          format: resolved.format,
          mapping: resolved.mapping,
          espi: request,
          mdff: request,
          signal: abort.signal,
          onProgress: (progress) => report(progress.phase, progress.rowsRead, progress.phase !== 'reading'),
        },
      );
      await pending;
      await finishJob(this.db, id, { status: 'done', report: result, error: null });
      this.onImported();
      await file.remove();
    } catch (error) {
      await pending;
      if (error instanceof ImportRefused) {
        const wasCancelled = error.report.refusal === CANCELLED;
        await finishJob(this.db, id, {
          status: wasCancelled ? 'cancelled' : 'refused',
          report: error.report,
          error: null,
        });
        await file.remove();
        return;
      }
      throw error;
    } finally {
      this.running = undefined;
    }
  }
}

const isMdff = (format: string) => format === 'nem12' || format === 'nem13';

/** A saved mapping: a delimited file's, or an NMI map (stored as `{ nmis }`). */
function presentMapping(row: ImportMappingRow) {
  const stored = row.mapping as DelimitedMapping | { nmis: NmiMap };
  const isNmiMap = 'nmis' in stored && !('delimiter' in stored);
  return {
    name: row.name,
    mapping: isNmiMap ? null : (stored as DelimitedMapping),
    nmis: isNmiMap ? stored.nmis : null,
    updatedAt: row.updated_at.toISOString(),
  };
}

const CANCEL_TOO_LATE = 'Too late to cancel: this import has finished, and what it stored stays.';
const ALREADY_ENDED = 'This import has already ended: there is nothing to cancel.';

function present(row: ImportJobRow): ImportJob {
  const source = row.source === null ? null : startImportBodySchema.parse(row.source);
  const detection = importDetectionSchema.parse(row.detection);
  const passes = detection.format === 'espi' ? 2 : 1;
  const total = Math.max(1, row.bytes * passes);
  const finished = row.status === 'done' || row.status === 'refused';
  const readShare = Math.min(1, row.bytes_read / total);
  // Reading the file is most of the work; checking and storing the last tenth.
  const percent = finished
    ? 100
    : row.phase === 'storing'
      ? 95
      : row.phase === 'checking'
        ? 90
        : Math.round(readShare * 900) / 10;
  const elapsed = row.started_at ? (Date.now() - row.started_at.getTime()) / 1000 : 0;
  const secondsLeft =
    row.status === 'running' && percent >= 2 ? Math.round((elapsed * (100 - percent)) / percent) : null;
  return {
    id: row.id,
    status: importJobSchema.shape.status.parse(row.status),
    fileName: row.file_name,
    bytes: row.bytes,
    createdAt: row.created_at.toISOString(),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    detection,
    source,
    progress: {
      phase: row.phase === null ? null : importJobSchema.shape.progress.shape.phase.parse(row.phase),
      rowsRead: row.rows_read,
      bytesRead: row.bytes_read,
      percent,
      secondsLeft,
    },
    report: row.report === null ? null : importReportSchema.parse(row.report),
    error: row.error,
    cancelRequested: row.cancel_requested,
  };
}
