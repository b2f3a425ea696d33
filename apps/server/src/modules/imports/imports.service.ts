import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
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
  countStaged,
  createStaging,
  hasStoredInRange,
  indexStaging,
  listConflicts,
  listStagedRejects,
  loadMeters,
  rejectDecreases,
  rejectFirstDecreases,
  rejectInFileDuplicates,
  storeNewStaged,
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

/**
 * Counts and collects what the parser refused, and notes how the staged rows run per meter, so
 * that checks which cannot find anything are skipped. Memory: one entry per meter, not per row.
 */
class ParseTally {
  rowsRead = 0;
  rejectedCount = 0;
  readonly rejected: RejectedLine[] = [];
  /** Every meter's rows come strictly later than its previous row: no in-file duplicates. */
  isTimeOrdered = true;
  /** Some meter's value goes down from one of its rows to the next, in file order. */
  hasValueDrop = false;
  private readonly last = new Map<number, { readAtMs: number; value: number }>();

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

  meterIds(): number[] {
    return [...this.last.keys()];
  }

  private note(row: StagedRow): void {
    const previous = this.last.get(row.meterId);
    if (previous) {
      if (row.readAtMs <= previous.readAtMs) this.isTimeOrdered = false;
      if (row.value < previous.value) this.hasValueDrop = true;
      previous.readAtMs = row.readAtMs;
      previous.value = row.value;
    } else this.last.set(row.meterId, { readAtMs: row.readAtMs, value: row.value });
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
    const batches = options.format === 'csv' ? parseCsv(input, context) : parseEspi(input, context);
    try {
      await this.db.transaction(async (tx) => {
        await createStaging(tx);
        await stage(tx, batches, tally);
        report.rowsRead = tally.rowsRead;
        await indexStaging(tx);
        if (!tally.isTimeOrdered) await rejectInFileDuplicates(tx);
        const isInterval = context.kind === 'interval';
        const source = isInterval ? SOURCE_INTERVAL : SOURCE_IMPORT;
        const meterIds = tally.meterIds();
        // New register data in order (the common case) needs neither the full decrease check nor
        // a comparison row by row: see hasStoredInRange.
        const isNewRange =
          !isInterval &&
          tally.isTimeOrdered &&
          !tally.hasValueDrop &&
          !(await hasStoredInRange(tx, meterIds));
        if (isInterval) await accumulateIntervals(tx);
        else if (isNewRange) await rejectFirstDecreases(tx, meterIds);
        else await rejectDecreases(tx);
        let comparison = isNewRange ? await countStaged(tx) : await compareWithStored(tx);
        report.unchanged = comparison.unchanged;
        report.conflictCount = comparison.conflictCount;
        report.conflicts = isNewRange ? [] : await reportedConflicts(tx);
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
        if (options.strict && report.rejectedCount > 0) {
          throw new ImportRefusal(
            `Strict mode: ${report.rejectedCount} line(s) were rejected, so nothing was stored. The first: line ${report.rejected[0]?.line ?? '?'}: ${report.rejected[0]?.reason ?? ''}`,
          );
        }
        let stored = isNewRange ? await storeNewStaged(tx, source) : undefined;
        if (stored === undefined) {
          if (isNewRange) {
            // Readings were stored inside the file's range meanwhile: compare row by row after all.
            comparison = await compareWithStored(tx);
            report.unchanged = comparison.unchanged;
            report.conflictCount = comparison.conflictCount;
            report.conflicts = await reportedConflicts(tx);
          }
          stored = await storeStaged(tx, source);
        }
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

async function reportedConflicts(tx: SqlRunner): Promise<ImportReport['conflicts']> {
  return (await listConflicts(tx, MAX_REPORTED_LINES)).map((c) => ({
    line: c.line,
    meterNumber: c.meter_number,
    at: c.read_at.toISOString(),
    stored: c.stored / 1000,
    incoming: c.incoming / 1000,
  }));
}

/** Streams rows into the staging table with COPY. */
async function stage(tx: SqlRunner, batches: AsyncIterable<ParsedItem[]>, tally: ParseTally): Promise<void> {
  await tx.copyFrom(COPY_STAGING, copyChunks(batches, tally));
}

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
