import type { Readable } from 'node:stream';
import { MAX_REPORTED_LINES, type ImportReport, type RejectedLine } from '@cm/contracts/admin.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { writeAudit, type Actor } from '../admin/audit.queries.ts';
import { parseCsv } from './csv-source.ts';
import { parseEspi } from './espi-source.ts';
import { ImportRefusal, type ParseContext, type ParsedItem, type StagedRow } from './import-rows.ts';
import {
  accumulateIntervals,
  compareWithStored,
  COPY_STAGING,
  copyLine,
  createStaging,
  indexStaging,
  insertStagingBatch,
  listConflicts,
  listStagedRejects,
  loadMeters,
  rejectDecreases,
  rejectInFileDuplicates,
  storeStaged,
} from './imports.queries.ts';

export interface ImportOptions {
  format: 'csv' | 'espi';
  timeZone?: string | undefined;
  meterNumber?: string | undefined;
  strict: boolean;
}

/** An import that stored nothing; carries the report for the 422 answer. */
export class ImportRefused extends Error {
  constructor(readonly report: ImportReport) {
    super(report.refusal ?? 'The import was refused.');
  }
}

// Reading sources (db/schema.ts): 1 import, 2 interval.
const SOURCE_IMPORT = 1;
const SOURCE_INTERVAL = 2;
const BATCH_ROWS = 5000;
const COPY_CHUNK_ROWS = 2000;

/** Counts and collects what the parser refused while passing the good rows on. */
class ParseTally {
  rowsRead = 0;
  rejectedCount = 0;
  readonly rejected: RejectedLine[] = [];

  async *rows(items: AsyncIterable<ParsedItem>): AsyncGenerator<StagedRow> {
    for await (const item of items) {
      this.rowsRead++;
      if ('row' in item) {
        yield item.row;
        continue;
      }
      this.rejectedCount++;
      if (this.rejected.length < MAX_REPORTED_LINES)
        this.rejected.push({ line: item.line, reason: item.reason });
    }
  }
}

export class ImportsService {
  constructor(private readonly db: Db) {}

  /**
   * Imports one file of readings in one transaction: every valid row is stored, or (strict mode,
   * or a refused file) nothing. Idempotent on (meter, instant): a stored instant is never
   * overwritten; the same value counts as unchanged, another value as a conflict.
   */
  async importReadings(actor: Actor, input: Readable, options: ImportOptions): Promise<ImportReport> {
    const report: ImportReport = {
      format: options.format,
      committed: false,
      refusal: null,
      rowsRead: 0,
      inserted: 0,
      unchanged: 0,
      conflictCount: 0,
      conflicts: [],
      rejectedCount: 0,
      rejected: [],
      openingReadings: 0,
    };
    const tally = new ParseTally();
    const context: ParseContext = {
      meters: await loadMeters(this.db),
      timeZone: options.timeZone,
      meterNumber: options.meterNumber,
      nowMs: Date.now(),
      kind: undefined,
    };
    const items = options.format === 'csv' ? parseCsv(input, context) : parseEspi(input, context);
    try {
      await this.db.transaction(async (tx) => {
        await createStaging(tx);
        await stage(tx, tally.rows(items));
        report.rowsRead = tally.rowsRead;
        await indexStaging(tx);
        await rejectInFileDuplicates(tx);
        const isInterval = context.kind === 'interval';
        if (isInterval) await accumulateIntervals(tx);
        else await rejectDecreases(tx);
        const comparison = await compareWithStored(tx);
        report.unchanged = comparison.unchanged;
        report.conflictCount = comparison.conflictCount;
        report.rejectedCount = tally.rejectedCount + comparison.rejectedCount;
        report.rejected = [
          ...tally.rejected,
          ...(await listStagedRejects(tx, MAX_REPORTED_LINES)).map((r) => ({
            line: r.line,
            reason: r.reject,
          })),
        ]
          .sort((a, b) => a.line - b.line)
          .slice(0, MAX_REPORTED_LINES);
        report.conflicts = (await listConflicts(tx, MAX_REPORTED_LINES)).map((c) => ({
          line: c.line,
          meterNumber: c.meter_number,
          at: c.read_at.toISOString(),
          stored: c.stored / 1000,
          incoming: c.incoming / 1000,
        }));
        if (options.strict && report.rejectedCount > 0) {
          throw new ImportRefusal(
            `Strict mode: ${report.rejectedCount} line(s) were rejected, so nothing was stored. The first: line ${report.rejected[0]?.line ?? '?'}: ${report.rejected[0]?.reason ?? ''}`,
          );
        }
        const stored = await storeStaged(tx, isInterval ? SOURCE_INTERVAL : SOURCE_IMPORT);
        report.openingReadings = comparison.openingNew;
        report.inserted = stored - comparison.openingNew;
        report.committed = true;
        await writeAudit(tx, actor, {
          action: 'readings.import',
          targetType: 'readings',
          targetId: null,
          detail: {
            format: options.format,
            timeZone: options.timeZone ?? null,
            meterNumber: options.meterNumber ?? null,
            strict: options.strict,
            rowsRead: report.rowsRead,
            inserted: report.inserted,
            unchanged: report.unchanged,
            conflicts: report.conflictCount,
            rejected: report.rejectedCount,
            openingReadings: report.openingReadings,
          },
        });
      });
    } catch (error) {
      if (!(error instanceof ImportRefusal)) throw error;
      report.rowsRead = Math.max(report.rowsRead, tally.rowsRead);
      report.rejectedCount = Math.max(report.rejectedCount, tally.rejectedCount);
      if (report.rejected.length === 0) report.rejected = tally.rejected;
      report.committed = false;
      report.inserted = 0;
      report.openingReadings = 0;
      report.refusal = error.message;
      throw new ImportRefused(report);
    }
    return report;
  }
}

/** Streams rows into the staging table: COPY on a PostgreSQL server, array batches on PGlite. */
async function stage(tx: SqlRunner, rows: AsyncIterable<StagedRow>): Promise<void> {
  if (tx.copyFrom) {
    await tx.copyFrom(COPY_STAGING, copyChunks(rows));
    return;
  }
  let batch: StagedRow[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= BATCH_ROWS) {
      await insertStagingBatch(tx, batch);
      batch = [];
    }
  }
  if (batch.length > 0) await insertStagingBatch(tx, batch);
}

// Many rows per chunk: one stream write per row would cost more than the parsing.
async function* copyChunks(rows: AsyncIterable<StagedRow>): AsyncGenerator<string> {
  let chunk = '';
  let count = 0;
  for await (const row of rows) {
    chunk += copyLine(row);
    if (++count >= COPY_CHUNK_ROWS) {
      yield chunk;
      chunk = '';
      count = 0;
    }
  }
  if (chunk) yield chunk;
}
