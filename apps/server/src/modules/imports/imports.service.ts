import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MAX_REPORTED_LINES, type ImportReport, type RejectedLine } from '@cm/contracts/admin.ts';
import type { ImportPhase } from '@cm/contracts/import-jobs.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import type { Actor } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import { readings, copyLine, ReadingsStage, type ReadingsAddedListener } from '../readings/index.ts';
import { reconcileImported } from './reconcile-stored.ts';
import { parserFor, type ReadOptions } from './parsers.ts';
import {
  ImportRefusal,
  rejectedLine,
  type ParseContext,
  type ParsedItem,
  type StagedRow,
} from './import-rows.ts';
import { addChannels, loadMeterFacts } from '../directory/index.ts';

export interface ImportOptions extends ReadOptions {
  timeZone?: string | undefined;
  meterNumber?: string | undefined;
  strict: boolean;
  /** A different value for a stored instant replaces it (kept in the history) instead of being a conflict. */
  corrections: boolean;
  /** Aborted: the import stops at the next batch and stores nothing. */
  signal?: AbortSignal | undefined;
  /** Told the rows read so far after every batch, and when checking and storing begin. */
  onProgress?: ((progress: { phase: ImportPhase; rowsRead: number }) => void) | undefined;
}

/** An import that stored nothing; carries the report for the 422 answer. */
export class ImportRefused extends Error {
  constructor(readonly report: ImportReport) {
    super(report.refusal ?? 'The import was refused.');
  }
}

/** The refusal of an import stopped by its administrator. */
export const CANCELLED = 'The import was cancelled; nothing was stored.';

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
  /** Every meter's rows run strictly one way in time (forwards, or newest first): no in-file duplicates. */
  isTimeOrdered = true;
  /** Some register goes down as time goes on, from one of its rows to the next. */
  hasValueDrop = false;
  /** Some row is an interval record. */
  hasIntervals = false;
  private readonly last = new Map<string, { atMs: number; micro: number; direction: number }>();
  /** Each meter and channel the good rows name, as `meterId:channel`. */
  readonly meterChannels = new Set<string>();

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
      if (this.rejected.length < MAX_REPORTED_LINES) this.rejected.push(rejectedLine(item.line, item.reason));
    }
    return rows;
  }

  private note(row: StagedRow): void {
    if (row.kind === 'interval') this.hasIntervals = true;
    this.meterChannels.add(`${row.meterId}:${row.channel}`);
    const key = `${row.meterId}:${row.channel}:${row.kind}`;
    const previous = this.last.get(key);
    if (!previous) {
      this.last.set(key, { atMs: row.atMs, micro: row.micro, direction: 0 });
      return;
    }
    const direction = Math.sign(row.atMs - previous.atMs);
    if (direction === 0 || (previous.direction !== 0 && direction !== previous.direction))
      this.isTimeOrdered = false;
    if (row.kind === 'register' && (row.micro - previous.micro) * direction < 0) this.hasValueDrop = true;
    previous.atMs = row.atMs;
    previous.micro = row.micro;
    previous.direction = direction;
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
  notes: [],
});

export class ImportsService {
  /** `added`: told of the meters an import added readings to (ESPI notifications). */
  constructor(
    private readonly db: Db,
    private readonly added?: ReadingsAddedListener,
  ) {}

  /** Drops the stages a stopped server left behind. */
  async cleanUp(): Promise<void> {
    await ReadingsStage.dropLeftovers(this.db, LEFTOVER_STAGE_MS);
  }

  /**
   * Imports one file of readings: every valid row is stored, or (strict mode, or a refused file)
   * nothing. The rows are staged first (one transaction), the readings tables' partitions for their
   * time made (a short one), then checked and stored in one transaction. Idempotent on (meter,
   * channel, instant): a stored value is never overwritten unless `corrections` says so; the same
   * value counts as unchanged, another as a conflict.
   */
  async importReadings(
    actor: Actor,
    file: { open(): Readable },
    options: ImportOptions,
  ): Promise<ImportReport> {
    const report = emptyReport(options.format);
    const tally = new ParseTally();
    const context: ParseContext = {
      meters: await loadMeterFacts(this.db),
      timeZone: options.timeZone,
      meterNumber: options.meterNumber,
      nowMs: Date.now(),
      kind: undefined,
      notes: [],
    };
    const stage = await ReadingsStage.open(this.db, { temporary: false });
    try {
      await stage.fill(this.db, copyChunks(parserFor(file, options, context), tally, options));
      options.onProgress?.({ phase: 'checking', rowsRead: tally.rowsRead });
      report.notes = context.notes;
      report.rowsRead = tally.rowsRead;
      const span = await stage.span(this.db);
      if (span.lo && span.hi) await readings.makeRoom(this.db, span.lo, span.hi);
      await this.db.transaction(async (tx) => {
        await tx.query(`SET LOCAL statement_timeout = '${IMPORT_STATEMENT_TIMEOUT}'`);
        await this.checkAndStore(tx, stage, tally, report, options);
        if (report.committed && span.lo && span.hi) {
          const reconciled = await reconcileImported(tx, meterChannelsOf(tally, context), {
            fromMs: span.lo.getTime(),
            toMs: span.hi.getTime(),
          });
          if (reconciled.length > 0) report.reconciliation = reconciled;
        }
        await recordAudit(tx, actor, {
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
          await stage.correct(tx, actor, `import (${options.format}) by ${actorName(actor)}`);
        // A cancel that came while checking or storing still stops it: nothing is committed yet
        // (issue 34: one in the last phase was ignored and everything was stored).
        if (options.signal?.aborted) throw new ImportRefusal(CANCELLED);
        if (stage.changedMeterIds.size > 0) await this.added?.added(tx, [...stage.changedMeterIds]);
      });
      if (stage.changedMeterIds.size > 0) this.added?.committed();
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
      await stage.drop(this.db);
    }
    return report;
  }

  private async checkAndStore(
    tx: SqlRunner,
    stage: ReadingsStage,
    tally: ParseTally,
    report: ImportReport,
    options: ImportOptions,
  ): Promise<void> {
    // New data in time order with nothing stored inside its range (the common case) can only clash
    // with its neighbours: the checks still run, the row-by-row conflict check on storing does not.
    const isNew = tally.isTimeOrdered && !tally.hasValueDrop && !(await stage.touchesStored(tx));
    await stage.check(tx, {
      mayRepeat: !tally.isTimeOrdered,
      mayFall: !tally.isTimeOrdered || tally.hasValueDrop,
      hasIntervals: tally.hasIntervals,
      corrections: options.corrections,
    });
    if (options.signal?.aborted) throw new ImportRefusal(CANCELLED);
    const comparison = await stage.compare(tx);
    report.unchanged = comparison.unchanged;
    report.rejectedCount = tally.rejectedCount + comparison.rejected;
    report.rejected = [
      ...tally.rejected,
      ...(await stage.rejects(tx, MAX_REPORTED_LINES)).map((r) => rejectedLine(r.line, r.reason)),
    ]
      .sort((a, b) => a.line - b.line)
      .slice(0, MAX_REPORTED_LINES);
    if (options.corrections) report.corrected = comparison.differing;
    else {
      report.conflictCount = comparison.differing;
      // Listing them joins every row with the stored ones again: not when the count says none.
      const differing = comparison.differing === 0 ? [] : await stage.differing(tx, MAX_REPORTED_LINES);
      report.conflicts = differing.map((c) => ({
        line: c.line,
        meterNumber: c.meter_number,
        at: c.at.toISOString(),
        stored: c.stored / 1e6,
        incoming: c.incoming / 1e6,
      }));
    }
    if (options.strict && report.rejectedCount > 0) {
      throw new ImportRefusal(
        `Strict mode: ${report.rejectedCount === 1 ? '1 line was' : `${report.rejectedCount} lines were`} rejected, so nothing was stored. The first: line ${report.rejected[0]?.line ?? '?'}: ${report.rejected[0]?.reason ?? ''}`,
      );
    }
    await addChannels(tx, await stage.channels(tx));
    options.onProgress?.({ phase: 'storing', rowsRead: tally.rowsRead });
    report.inserted = await stage.store(tx, SOURCE_IMPORT, isNew);
    report.committed = true;
  }
}

const actorName = (actor: Actor) =>
  actor.userId !== null
    ? `user ${actor.userId}`
    : actor.apiKeyId !== null
      ? `API key ${actor.apiKeyId}`
      : 'system';

/** The meters and channels the file's good rows name: what the report reconciles. */
function meterChannelsOf(tally: ParseTally, context: ParseContext) {
  const byId = new Map([...context.meters.values()].map((meter) => [meter.id, meter]));
  return [...tally.meterChannels].flatMap((key) => {
    const [meterId = 0, channel = 1] = key.split(':').map(Number);
    const meter = byId.get(meterId);
    return meter ? [{ meter, channel }] : [];
  });
}

// One stream write per parsed batch (a read chunk's worth of lines), never one per row.
async function* copyChunks(
  batches: AsyncIterable<ParsedItem[]>,
  tally: ParseTally,
  options: Pick<ImportOptions, 'signal' | 'onProgress'>,
): AsyncGenerator<string> {
  for await (const items of batches) {
    if (options.signal?.aborted) throw new ImportRefusal(CANCELLED);
    let chunk = '';
    for (const row of tally.take(items)) chunk += copyLine(row);
    if (chunk) yield chunk;
    options.onProgress?.({ phase: 'reading', rowsRead: tally.rowsRead });
    // A file read from disk is ready chunk after chunk, and promises alone would parse it to the
    // end in one go: let other requests in between batches (a few milliseconds each).
    await nextTurn();
  }
}
