import { randomBytes } from 'node:crypto';
import type { ImportReason } from '@cm/contracts/import-reasons.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import type { Actor } from '../access/index.ts';
import {
  compareWithStored,
  countStaged,
  copyStage,
  correctStaged,
  createStage,
  dropLeftoverStages,
  dropStage,
  hasStoredInRange,
  indexStage,
  listDiffering,
  listStagedRejects,
  readReject,
  listStageOutcomes,
  newStageName,
  rejectInFileDuplicates,
  rejectIntervalOverlaps,
  rejectRegisterDecreases,
  stagedChannels,
  stagedSpan,
  storeStaged,
  type Comparison,
  type PerMeter,
  type StageName,
} from './readings-stage.queries.ts';

export { copyLine, type StageLine } from './readings-stage.queries.ts';

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) =>
  error instanceof Error && 'code' in error && error.code === UNIQUE_VIOLATION;

/**
 * Told of what a write of many readings added (an import, a device batch): the meters whose
 * readings it added or changed, inside its transaction, then that it committed.
 */
export interface ReadingsAddedListener {
  added(tx: SqlRunner, meterIds: readonly number[]): Promise<void>;
  committed(): void;
}

/**
 * Readings on their way in, from a file or a device's batch: copied into a staging table, checked
 * there as a whole against each other and the stored readings (set-based statements, nothing held
 * in memory), then stored. The readings module's one door for writes of many readings; imports and
 * ingest drive it. A stage is unlogged (an import spans several transactions) or temporary (a batch
 * stored in one transaction, dropped at commit).
 */
export class ReadingsStage {
  private isIndexed = false;
  /** What touchesStored found; false: no staged row can meet a stored one, so none is compared. */
  private touches: boolean | undefined;
  /** The meters whose readings store and correct added or changed. */
  readonly changedMeterIds = new Set<number>();

  private constructor(private readonly name: StageName) {}

  static async open(db: SqlRunner, options: { temporary: boolean }): Promise<ReadingsStage> {
    const stage = new ReadingsStage(newStageName(Date.now(), randomBytes(6).toString('hex')));
    await createStage(db, stage.name, options.temporary);
    return stage;
  }

  /** Drops the stages older than `maxAgeMs`, which a server stopped mid-import left behind. */
  static dropLeftovers(db: SqlRunner, maxAgeMs: number): Promise<void> {
    return dropLeftoverStages(db, Date.now(), maxAgeMs);
  }

  /** Copies rows in, as COPY text lines (copyLine), a chunk of lines at a time. */
  fill(db: Pick<Db, 'copyFrom'>, chunks: Iterable<string> | AsyncIterable<string>): Promise<void> {
    return db.copyFrom(copyStage(this.name), chunks);
  }

  /** The time the staged rows span (for the readings tables' partitions). */
  span(db: SqlRunner) {
    return stagedSpan(db, this.name);
  }

  /**
   * Every check, in order, each refusing rows with their reason: rows repeating one of the batch,
   * registers falling against the stored ones or each other, intervals overlapping. What the caller
   * saw while reading the rows skips checks that cannot refuse any: no repeats when each meter's
   * rows run in time order, no fall inside the batch when its registers never go down on the way
   * (`mayFall` false), no overlap without intervals.
   */
  async check(
    tx: SqlRunner,
    options: { mayRepeat: boolean; mayFall?: boolean; hasIntervals?: boolean; corrections?: boolean },
  ): Promise<void> {
    await this.index(tx);
    if (options.mayRepeat) await rejectInFileDuplicates(tx, this.name);
    await rejectRegisterDecreases(
      tx,
      this.name,
      this.touches !== false,
      options.mayFall ?? true,
      !(options.corrections ?? false),
    );
    if (options.hasIntervals ?? true) await rejectIntervalOverlaps(tx, this.name);
  }

  /**
   * How the rows left compare with the stored ones at the same instants. When touchesStored found
   * nothing stored in their time (checks only refuse rows, so that stays true), the rows are only
   * counted: a million new rows are not joined with the readings tables to find no match.
   */
  compare(tx: SqlRunner): Promise<Comparison> {
    return this.touches === false ? countStaged(tx, this.name) : compareWithStored(tx, this.name);
  }

  /** Whether any stored reading lies inside the staged rows' time (after indexing, before check). */
  async touchesStored(tx: SqlRunner): Promise<boolean> {
    await this.index(tx);
    this.touches = await hasStoredInRange(tx, this.name);
    return this.touches;
  }

  private async index(tx: SqlRunner): Promise<void> {
    if (this.isIndexed) return;
    await indexStage(tx, this.name);
    this.isIndexed = true;
  }

  /** The refused rows, by line, each with why. */
  async rejects(tx: SqlRunner, limit: number): Promise<Array<{ line: number; reason: ImportReason }>> {
    const rows = await listStagedRejects(tx, this.name, limit);
    return rows.map((row) => ({ line: row.line, reason: readReject(row.reject) }));
  }

  /** Rows whose instant is stored with another value, with the stored one. */
  async differing(tx: SqlRunner, limit: number) {
    return this.touches === false ? [] : listDiffering(tx, this.name, limit);
  }

  /** Each row's outcome (a device batch answers per reading). */
  async outcomes(tx: SqlRunner) {
    const rows = await listStageOutcomes(tx, this.name);
    return rows.map(({ reject, ...row }) => ({
      ...row,
      reason: reject === null ? null : readReject(reject),
    }));
  }

  /** The (meter, channel) pairs of the rows to store, for the directory's meter channels. */
  channels(tx: SqlRunner) {
    return stagedChannels(tx, this.name);
  }

  /**
   * Stores every valid row that is new; an instant already stored is left alone. `isNew`: no row
   * matched a stored one a moment ago, so a plain INSERT; should one have been stored since (a
   * concurrent ingest), the same again with ON CONFLICT DO NOTHING, as if it had gone that way at once.
   */
  async store(tx: SqlRunner, source: number, isNew: boolean): Promise<number> {
    return this.changed(await this.storeOnce(tx, source, isNew));
  }

  private async storeOnce(tx: SqlRunner, source: number, isNew: boolean): Promise<PerMeter> {
    if (!isNew) return storeStaged(tx, this.name, source, false);
    await tx.query('SAVEPOINT readings_store');
    try {
      const stored = await storeStaged(tx, this.name, source, true);
      await tx.query('RELEASE SAVEPOINT readings_store');
      return stored;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT readings_store');
      return storeStaged(tx, this.name, source, false);
    }
  }

  /** Replaces stored values that differ by the staged ones, keeping the old ones in the history. */
  async correct(tx: SqlRunner, actor: Actor, reason: string): Promise<number> {
    return this.changed(await correctStaged(tx, this.name, actor, reason));
  }

  private changed({ count, meterIds }: PerMeter): number {
    for (const id of meterIds) this.changedMeterIds.add(id);
    return count;
  }

  drop(db: SqlRunner): Promise<void> {
    return dropStage(db, this.name);
  }
}
