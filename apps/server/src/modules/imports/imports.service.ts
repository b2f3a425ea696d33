import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MAX_REPORTED_LINES, type ImportReport, type RejectedLine } from '@cm/contracts/admin.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { writeAudit, type Actor } from '../admin/audit.queries.ts';
import { ensurePartitions } from '../readings/readings.queries.ts';
import { parseCsv } from './csv-source.ts';
import { parseEspi } from './espi-source.ts';
import { ImportRefusal, type ParseContext, type ParsedItem, type StagedRow } from './import-rows.ts';
import { loadMeters } from './imports.queries.ts';
import {
  addStagedChannels,
  compareWithStored,
  copyLine,
  copyStage,
  correctStaged,
  createStage,
  dropLeftoverStages,
  dropStage,
  hasStoredInRange,
  indexStage,
  listDiffering,
  listStagedRejects,
  newStageName,
  rejectInFileDuplicates,
  rejectIntervalOverlaps,
  rejectRegisterDecreases,
  stagedSpan,
  storeStaged,
  type StageName,
} from '../readings/readings-stage.queries.ts';

export interface ImportOptions {
  format: 'csv' | 'espi';
  timeZone?: string | undefined;
  meterNumber?: string | undefined;
  strict: boolean;
  /** A different value for a stored instant replaces it (kept in the history) instead of being a conflict. */
  corrections: boolean;
}

/** An import that stored nothing; carries the report for the 422 answer. */
export class ImportRefused extends Error {
  constructor(readonly report: ImportReport) {
    super(report.refusal ?? 'The import was refused.');
  }
}

// Reading sources (db/schema.ts): 1 import.
const SOURCE_IMPORT = 1;
// An import's statements may take longer than a request's (DATABASE_STATEMENT_TIMEOUT_MS): it
// holds no lock anybody else waits for, and a large file must not fail for its size.
const IMPORT_STATEMENT_TIMEOUT = '30min';
// A stage older than this belongs to no import that is still running.
const LEFTOVER_STAGE_MS = 6 * 3_600_000;

/**
 * Counts and collects what the parser refused, and notes how the staged rows run, so that checks
 * which cannot find anything are skipped. Memory: one entry per meter and channel, not per row.
 */
class ParseTally {
  rowsRead = 0;
  rejectedCount = 0;
  readonly rejected: RejectedLine[] = [];
  /** Every meter's rows come strictly later than its previous row: no in-file duplicates. */
  isTimeOrdered = true;
  /** Some register goes down from one of its rows to the next, in file order. */
  hasValueDrop = false;
  private readonly last = new Map<string, { atMs: number; micro: number }>();

  /** The good rows of a batch; the refused lines are counted and kept for the report. */
  take(items: readonly ParsedItem[]): StagedRow[] {
    const rows: StagedRow[] = [];
    for (const item of items) {
      this.rowsRead++;
      if ('row' in item) {
        this.note(item.row);
        rows.push(item.row);
        continue;
      }
      this.rejectedCount++;
      if (this.rejected.length < MAX_REPORTED_LINES)
        this.rejected.push({ line: item.line, reason: item.reason });
    }
    return rows;
  }

  private note(row: StagedRow): void {
    const key = `${row.meterId}:${row.channel}:${row.kind}`;
    const previous = this.last.get(key);
    if (previous) {
      if (row.atMs <= previous.atMs) this.isTimeOrdered = false;
      if (row.kind === 'register' && row.micro < previous.micro) this.hasValueDrop = true;
      previous.atMs = row.atMs;
      previous.micro = row.micro;
    } else this.last.set(key, { atMs: row.atMs, micro: row.micro });
  }
}

const emptyReport = (format: ImportOptions['format']): ImportReport => ({
  format,
  committed: false,
  refusal: null,
  rowsRead: 0,
  inserted: 0,
  unchanged: 0,
  corrected: 0,
  conflictCount: 0,
  conflicts: [],
  rejectedCount: 0,
  rejected: [],
});

export class ImportsService {
  constructor(private readonly db: Db) {}

  /** Drops the stages a stopped server left behind. */
  async cleanUp(): Promise<void> {
    await dropLeftoverStages(this.db, Date.now(), LEFTOVER_STAGE_MS);
  }

  /**
   * Imports one file of readings: every valid row is stored, or (strict mode, or a refused file)
   * nothing. The rows are staged first (one transaction), the readings tables' partitions for their
   * time made (a short one), then checked and stored in one transaction. Idempotent on (meter,
   * channel, instant): a stored value is never overwritten unless `corrections` says so; the same
   * value counts as unchanged, another as a conflict.
   */
  async importReadings(actor: Actor, input: Readable, options: ImportOptions): Promise<ImportReport> {
    const report = emptyReport(options.format);
    const tally = new ParseTally();
    const context: ParseContext = {
      meters: await loadMeters(this.db),
      timeZone: options.timeZone,
      meterNumber: options.meterNumber,
      nowMs: Date.now(),
      kind: undefined,
    };
    const stage = newStageName(Date.now(), randomBytes(6).toString('hex'));
    try {
      const batches = options.format === 'csv' ? parseCsv(input, context) : parseEspi(input, context);
      await createStage(this.db, stage);
      await this.db.copyFrom(copyStage(stage), copyChunks(batches, tally));
      report.rowsRead = tally.rowsRead;
      const span = await stagedSpan(this.db, stage);
      if (span.lo && span.hi) await ensurePartitions(this.db, span.lo, span.hi);
      await this.db.transaction(async (tx) => {
        await tx.query(`SET LOCAL statement_timeout = '${IMPORT_STATEMENT_TIMEOUT}'`);
        await this.checkAndStore(tx, stage, tally, report, options);
        await writeAudit(tx, actor, {
          action: 'readings.import',
          targetType: 'readings',
          targetId: null,
          detail: {
            format: options.format,
            timeZone: options.timeZone ?? null,
            meterNumber: options.meterNumber ?? null,
            strict: options.strict,
            corrections: options.corrections,
            rowsRead: report.rowsRead,
            inserted: report.inserted,
            unchanged: report.unchanged,
            corrected: report.corrected,
            conflicts: report.conflictCount,
            rejected: report.rejectedCount,
          },
        });
        if (report.corrected > 0)
          await correctStaged(tx, stage, actor, `import (${options.format}) by ${actorName(actor)}`);
      });
    } catch (error) {
      if (!(error instanceof ImportRefusal)) throw error;
      report.rowsRead = Math.max(report.rowsRead, tally.rowsRead);
      report.rejectedCount = Math.max(report.rejectedCount, tally.rejectedCount);
      if (report.rejected.length === 0) report.rejected = tally.rejected;
      report.committed = false;
      report.inserted = 0;
      report.corrected = 0;
      report.refusal = error.message;
      throw new ImportRefused(report);
    } finally {
      await dropStage(this.db, stage);
    }
    return report;
  }

  private async checkAndStore(
    tx: SqlRunner,
    stage: StageName,
    tally: ParseTally,
    report: ImportReport,
    options: ImportOptions,
  ): Promise<void> {
    await indexStage(tx, stage);
    if (!tally.isTimeOrdered) await rejectInFileDuplicates(tx, stage);
    // New data in time order with nothing stored inside its range (the common case) can only clash
    // with its neighbours: the checks below still run, the row-by-row comparison does not.
    const isNew = tally.isTimeOrdered && !tally.hasValueDrop && !(await hasStoredInRange(tx, stage));
    await rejectRegisterDecreases(tx, stage);
    await rejectIntervalOverlaps(tx, stage);
    const comparison = await compareWithStored(tx, stage);
    report.unchanged = comparison.unchanged;
    report.rejectedCount = tally.rejectedCount + comparison.rejected;
    report.rejected = [
      ...tally.rejected,
      ...(await listStagedRejects(tx, stage, MAX_REPORTED_LINES)).map((r) => ({
        line: r.line,
        reason: r.reject,
      })),
    ]
      .sort((a, b) => a.line - b.line)
      .slice(0, MAX_REPORTED_LINES);
    if (options.corrections) report.corrected = comparison.differing;
    else {
      report.conflictCount = comparison.differing;
      report.conflicts = (await listDiffering(tx, stage, MAX_REPORTED_LINES)).map((c) => ({
        line: c.line,
        meterNumber: c.meter_number,
        at: c.at.toISOString(),
        stored: c.stored / 1e6,
        incoming: c.incoming / 1e6,
      }));
    }
    if (options.strict && report.rejectedCount > 0) {
      throw new ImportRefusal(
        `Strict mode: ${report.rejectedCount} line(s) were rejected, so nothing was stored. The first: line ${report.rejected[0]?.line ?? '?'}: ${report.rejected[0]?.reason ?? ''}`,
      );
    }
    await addStagedChannels(tx, stage);
    report.inserted = await storeNew(tx, stage, isNew);
    report.committed = true;
  }
}

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) =>
  error instanceof Error && 'code' in error && error.code === UNIQUE_VIOLATION;

/**
 * Stores the new rows: a plain INSERT when none matched a stored one a moment ago (it skips the
 * per-row conflict check); should a reading have been stored at one of those instants since (a
 * concurrent ingest), the same with ON CONFLICT DO NOTHING, as if it had gone that way at once.
 */
async function storeNew(tx: SqlRunner, stage: StageName, isNew: boolean): Promise<number> {
  if (!isNew) return storeStaged(tx, stage, SOURCE_IMPORT, false);
  await tx.query('SAVEPOINT import_store');
  try {
    const stored = await storeStaged(tx, stage, SOURCE_IMPORT, true);
    await tx.query('RELEASE SAVEPOINT import_store');
    return stored;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT import_store');
    return storeStaged(tx, stage, SOURCE_IMPORT, false);
  }
}

const actorName = (actor: Actor) =>
  actor.userId !== null
    ? `user ${actor.userId}`
    : actor.apiKeyId !== null
      ? `API key ${actor.apiKeyId}`
      : 'system';

// One stream write per parsed batch (a read chunk's worth of lines), never one per row.
async function* copyChunks(batches: AsyncIterable<ParsedItem[]>, tally: ParseTally): AsyncGenerator<string> {
  for await (const items of batches) {
    let chunk = '';
    for (const row of tally.take(items)) chunk += copyLine(row);
    if (chunk) yield chunk;
    // A file read from disk is ready chunk after chunk, and promises alone would parse it to the
    // end in one go: let other requests in between batches (a few milliseconds each).
    await nextTurn();
  }
}
