import type { Reconciliation, ReconciliationQuery, StoredReconciliation } from '@cm/contracts/import-jobs.ts';
import type { SqlRunner } from '../../db/client.ts';
import { HttpError } from '../../http-error.ts';
import type { MeterFacts } from '../directory/index.ts';
import { meterDays } from '../exports/index.ts';
import { readings } from '../readings/index.ts';
import { ChannelBoth, MAX_RECONCILED_INTERVALS, reconcile } from './reconcile.ts';

// The stored side of a reconciliation: a meter's registers or interval records of one channel over
// a range, read page by page into what reconcile.ts compares.

const PAGE_ROWS = 10_000;

/**
 * Adds the stored registers (read in [fromMs, toMs]) or interval records (starting in [fromMs,
 * toMs)) of a meter's channel to `into`; false when there were more than the reconciliation keeps.
 */
export async function addStored(
  db: SqlRunner,
  ask: { meterId: number; channel: number; fromMs: number; toMs: number },
  kind: 'register' | 'interval',
  into: ChannelBoth,
): Promise<boolean> {
  let afterMs = ask.fromMs - 1;
  for (;;) {
    const page = { meterId: ask.meterId, channel: ask.channel, afterMs, toMs: ask.toMs, limit: PAGE_ROWS };
    const rows =
      kind === 'register'
        ? (await readings.registersPage(db, page)).map(([ms, micro]) => {
            into.registers.push([ms, micro]);
            return ms;
          })
        : (await readings.intervalsPage(db, page)).map(([start, end, micro]) => {
            into.intervals.push([start, end, micro]);
            return start;
          });
    if (into.registers.length + into.intervals.length > MAX_RECONCILED_INTERVALS) return false;
    const last = rows.at(-1);
    if (rows.length < PAGE_ROWS || last === undefined) return true;
    afterMs = last;
  }
}

/** `GET /api/admin/imports/reconciliation`: a meter's stored registers against its stored intervals, per channel, over local days. */
export async function reconcileStored(
  db: SqlRunner,
  query: ReconciliationQuery,
): Promise<StoredReconciliation> {
  const { meter, ...range } = await meterDays(db, query);
  const facts = {
    meterNumber: meter.meterNumber,
    multiplier: meter.multiplier,
    registerDigits: meter.registerDigits,
    timeZone: meter.timeZone,
  };
  const items: StoredReconciliation['items'] = [];
  for (const channel of [1, 2]) {
    const both = new ChannelBoth();
    const ask = { meterId: meter.id, channel, fromMs: range.fromMs, toMs: range.toMs };
    const isWhole =
      (await addStored(db, ask, 'register', both)) && (await addStored(db, ask, 'interval', both));
    if (!isWhole)
      throw new HttpError(
        413,
        `More than ${MAX_RECONCILED_INTERVALS.toLocaleString('en')} readings in this range: ask for a shorter one.`,
      );
    const result = reconcile(both, facts, channel);
    if (result) items.push(result);
  }
  return { meterNumber: meter.meterNumber, timeZone: meter.timeZone, items };
}

/**
 * After an import: for each meter and channel of the file, its stored registers against its stored
 * intervals over the file's time, where it now has both (two register reads at least).
 */
export async function reconcileImported(
  db: SqlRunner,
  asks: ReadonlyArray<{ meter: MeterFacts; channel: number }>,
  span: { fromMs: number; toMs: number },
): Promise<Reconciliation[]> {
  const results: Reconciliation[] = [];
  for (const { meter, channel } of asks) {
    const both = new ChannelBoth();
    const ask = { meterId: meter.id, channel, ...span };
    // Registers first: without two of them there is nothing to reconcile, and no interval is read.
    if (!(await addStored(db, ask, 'register', both)) || both.registers.length < 2) continue;
    if (!(await addStored(db, ask, 'interval', both))) continue;
    const result = reconcile(both, meter, channel);
    if (result) results.push(result);
  }
  return results;
}
