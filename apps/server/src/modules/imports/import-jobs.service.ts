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
  type ImportJob,
  type ImportPreview,
  type ImportSource,
  type NmiMap,
  type StartImportBody,
} from '@cm/contracts/import-jobs.ts';
import { importReportSchema } from '@cm/contracts/admin.ts';
import type { DelimitedMapping } from '@cm/contracts/import-mapping.ts';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../http-error.ts';
import type { Actor } from '../audit/audit.service.ts';
import { meters } from '../directory/meters.service.ts';
import { DETECTION_BYTES, detectFormat } from './detect.ts';
import {
  claimJob,
  deleteMapping,
  expireUploads,
  findJob,
  finishJob,
  insertJob,
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
import { previewImport } from './preview.ts';
import { resolveSource, type ResolvedSource } from './source.ts';
import { openUpload } from './upload-open.ts';
import { spooledFile, spoolUpload } from './upload-spool.ts';

const JOB_NOT_FOUND = 'Import job not found.';
// A running job whose process has not reported for this long is taken over by another.
const STALE_SECONDS = 120;
const PROGRESS_EVERY_MS = 500;
// An upload that is never started is removed after a day.
const UPLOAD_KEPT_HOURS = 24;

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

  constructor(
    private readonly db: Db,
    private readonly imports: ImportsService,
    private readonly dir: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
    /** Told when a job has stored its readings (alerts are evaluated again). */
    private readonly onImported: () => void = () => {},
  ) {}

  private fileOf(id: string) {
    return path.join(this.dir, `${id}.upload`);
  }

  /** Takes up queued jobs, and those a stopped process left running; then checks every minute. */
  start(): void {
    const tick = () =>
      void this.takeUpQueued().catch((error: unknown) =>
        this.log.warn({ err: error }, 'import jobs: requeue failed'),
      );
    tick();
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
  ): Promise<ImportJob> {
    const id = randomUUID();
    const spooled = await spoolUpload(body, this.dir, maxBytes, id);
    try {
      // A ZIP or gzip opened, UTF-16 made UTF-8, binary refused: the job's file is text.
      const { file, note } = await openUpload(spooled, maxBytes);
      const detection = detectFormat(await file.head(DETECTION_BYTES), undefined);
      const row = await insertJob(this.db, {
        id,
        fileName: fileName ?? null,
        bytes: file.bytes,
        detection: note ? { ...detection, reason: `${note} ${detection.reason}` } : detection,
        createdBy: actor.userId,
        apiKeyId: actor.apiKeyId,
      });
      return present(row);
    } catch (error) {
      await spooled.remove();
      throw error;
    }
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
      await meters.facts(this.db),
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

  async cancel(id: string): Promise<ImportJob> {
    const row = await findJob(this.db, id);
    if (!row) throw notFound(JOB_NOT_FOUND);
    await requestCancel(this.db, id);
    if (this.running?.id === id) this.running.abort.abort();
    return this.get(id);
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

  /** Removes the files of uploads nobody started within a day. */
  async expireUploads(): Promise<number> {
    const expired = await expireUploads(this.db, UPLOAD_KEPT_HOURS);
    await Promise.all(expired.map((id) => spooledFile(this.fileOf(id), 0).remove()));
    return expired.length;
  }

  async mappings() {
    return { items: (await listMappings(this.db)).map(presentMapping) };
  }

  async saveMapping(
    name: string,
    saved: { mapping?: DelimitedMapping | undefined; nmis?: NmiMap | undefined },
  ) {
    return presentMapping(await upsertMapping(this.db, name, saved.mapping ?? { nmis: saved.nmis ?? {} }));
  }

  async removeMapping(name: string): Promise<void> {
    if (!(await deleteMapping(this.db, name))) throw notFound('No mapping has this name.');
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
  };
}
