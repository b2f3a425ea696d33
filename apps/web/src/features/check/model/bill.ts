import type { Bill, MeterReadings } from '@cm/contracts/check.ts';
import { countedMeters, metersWithData } from './location-total.ts';

/** The currency the answer's costs are in: its meters' bills (a location has one), null without a tariff. */
export function billCurrency(readings: { meters: readonly Pick<MeterReadings, 'bill'>[] }): string | null {
  return readings.meters.find((meter) => meter.bill !== null)?.bill?.currency ?? null;
}

type Charges = Pick<
  Bill,
  'energy' | 'standingCharge' | 'demandCharge' | 'capacityCharge' | 'tax' | 'feedIn' | 'total'
>;

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

function addCharges<T extends Charges>(a: T, b: Charges): T {
  return {
    ...a,
    energy: round6(a.energy + b.energy),
    standingCharge: round6(a.standingCharge + b.standingCharge),
    demandCharge: round6(a.demandCharge + b.demandCharge),
    capacityCharge: round6(a.capacityCharge + b.capacityCharge),
    tax: round6(a.tax + b.tax),
    feedIn: round6(a.feedIn + b.feedIn),
    total: round6(a.total + b.total),
  };
}

/** A location's bill and which meters it counts (as its energy total does: location-total.ts). */
export interface LocationBill {
  bill: Bill;
  /** `mainSupply`: the main supply's bill (the sub-meters are behind it); `allMeters`: their sum. */
  basis: 'mainSupply' | 'allMeters';
  /** Meters counted. */
  count: number;
  /** As the energy total (location-total.ts): only `known` of the `count` meters have data, and only they are billed here. */
  partial: { known: number } | null;
}

/**
 * The bill of a view's meters, counted as the energy total counts them (location-total.ts). Where
 * a meter is the main supply, the location pays what it measured (its sub-meters' energy is
 * inside it); otherwise each meter is its own supply and the charges add up. Meters without data in
 * the range are left out, as the energy total leaves them out (a partial bill, said so). A
 * projection is only given when every billed meter has one. Null when no counted meter has data
 * and a bill.
 */
export function locationBill(
  meters: readonly (Pick<MeterReadings, 'bill'> & {
    meter: Pick<MeterReadings['meter'], 'mainSupply'>;
    totals: Pick<MeterReadings['totals'], 'consumption'>;
  })[],
): LocationBill | null {
  const { basis, counted } = countedMeters(meters);
  const partial = metersWithData(counted);
  const billed = partial ? partial.known : counted.filter((m) => m.totals.consumption !== null);
  const bill = combinedBill(billed);
  return bill
    ? { bill, basis, count: counted.length, partial: partial ? { known: partial.known.length } : null }
    : null;
}

function combinedBill(meters: readonly Pick<MeterReadings, 'bill'>[]): Bill | null {
  const bills = meters.flatMap((meter) => (meter.bill ? [meter.bill] : []));
  const [first, ...rest] = bills;
  if (!first) return null;
  return rest.reduce<Bill>(
    (sum, bill) => ({
      ...addCharges(sum, bill),
      estimated: round6(sum.estimated + bill.estimated),
      unpricedConsumption: round6(sum.unpricedConsumption + bill.unpricedConsumption),
      standingDays: Math.max(sum.standingDays, bill.standingDays),
      projection:
        sum.projection && bill.projection
          ? {
              ...addCharges(sum.projection, bill.projection),
              averagedDays: Math.min(sum.projection.averagedDays, bill.projection.averagedDays),
              peakMayRise: sum.projection.peakMayRise || bill.projection.peakMayRise,
            }
          : null,
      // Each meter's own peak: several meters have no one peak to show (their charges add up).
      demand: sum.demand && bill.demand ? null : (sum.demand ?? bill.demand),
    }),
    first,
  );
}

/** What the bill card shows (issue 34, the bill first): this bill so far, where it is heading, the last one. */
export interface BillCardFigures {
  currency: string;
  /** This billing period's total up to now. */
  soFar: number;
  /** Its projection to the period's end (null: not projected, e.g. too few days of data). */
  projected: { total: number; to: string } | null;
  /** The whole bill before it (null: no data or no tariff then). */
  last: number | null;
  /** Projected (or, without a projection, so far) against the last bill: 0.1 is 10 % more. */
  change: number | null;
  /** Widths of the card's bar, as shares of the largest of projected, so far and last: so far, the rest projected, the last bill's mark. */
  bar: { soFar: number; rest: number; last: number | null };
  /** Either side counts only some of the meters (see locationBill). */
  partial: boolean;
}

/** The card's figures from this bill's and the last bill's answers; null when this bill has no tariff. */
export function billCardFigures(
  current: Parameters<typeof locationBill>[0],
  last: Parameters<typeof locationBill>[0] | null,
): BillCardFigures | null {
  const now = locationBill(current);
  if (!now) return null;
  const before = last ? locationBill(last) : null;
  // A last bill in another currency (a tariff changed currency) is not compared.
  const lastTotal = before && before.bill.currency === now.bill.currency ? before.bill.total : null;
  const { projection } = now.bill;
  const heading = projection ? projection.total : now.bill.total;
  const largest = Math.max(heading, now.bill.total, lastTotal ?? 0);
  // Widths in ten-thousandths: a hundredth of a percent of a bar is below a pixel.
  const share = (amount: number) =>
    largest > 0 ? Math.round((Math.max(0, amount) / largest) * 1e4) / 1e4 : 0;
  return {
    currency: now.bill.currency,
    soFar: now.bill.total,
    projected: projection ? { total: projection.total, to: projection.to } : null,
    last: lastTotal,
    change: lastTotal !== null && lastTotal > 0 ? heading / lastTotal - 1 : null,
    bar: {
      soFar: share(now.bill.total),
      rest: share(heading - now.bill.total),
      last: lastTotal === null ? null : share(lastTotal),
    },
    partial: now.partial !== null || before?.partial != null,
  };
}

/**
 * A bill's parts as they are shown, so that they add up to the total as shown (issue 34: 2.13 +
 * 0.33 + 0.57 shown under a total of 3.02). Each part is rounded to the currency's smallest unit
 * (`digits` decimals) by the largest remainder: each is rounded down, then the parts with the
 * largest remainders are rounded up until their sum is the rounded total. No part moves by a whole
 * unit or more; signed parts (a feed-in credit) are given negative.
 */
export function partsAsShown(parts: readonly number[], total: number, digits: number): number[] {
  const unit = 10 ** digits;
  // Amounts in units, freed of binary noise (0.3295 × 100 = 32.949999…).
  const scaled = parts.map((part) => Math.round(part * unit * 1e6) / 1e6);
  const floors = scaled.map(Math.floor);
  const target = Math.round(Math.round(total * unit * 1e6) / 1e6);
  let missing = target - floors.reduce((sum, value) => sum + value, 0);
  const byRemainder = scaled
    .map((value, index) => ({ index, remainder: value - (floors[index] ?? 0) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  const shown = [...floors];
  for (const { index, remainder } of byRemainder) {
    // Only a part with a remainder goes up: one without is exact and stays so.
    if (missing <= 0 || remainder <= 0) break;
    shown[index] = (shown[index] ?? 0) + 1;
    missing--;
  }
  // Parts that do not add up to the total (not a bill's) are each rounded on their own.
  if (missing !== 0) return parts.map((part) => Math.round(part * unit) / unit);
  return shown.map((value) => value / unit);
}
