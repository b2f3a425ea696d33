import type { Bill, MeterReadings } from '@cm/contracts/check.ts';

/** The currency the answer's costs are in: its meters' bills (a location has one), null without a tariff. */
export function billCurrency(readings: { meters: readonly Pick<MeterReadings, 'bill'>[] }): string | null {
  return readings.meters.find((meter) => meter.bill !== null)?.bill?.currency ?? null;
}

type Charges = Pick<Bill, 'energy' | 'standingCharge' | 'tax' | 'feedIn' | 'total'>;

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

function addCharges<T extends Charges>(a: T, b: Charges): T {
  return {
    ...a,
    energy: round6(a.energy + b.energy),
    standingCharge: round6(a.standingCharge + b.standingCharge),
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
}

/**
 * The bill of a view's meters. Where a meter is the main supply, the location pays what it
 * measured (its sub-meters' energy is inside it); otherwise each meter is its own supply and the
 * charges add up. A projection is only given when every counted meter has one. Null when no
 * counted meter has a bill.
 */
export function locationBill(
  meters: readonly (Pick<MeterReadings, 'bill'> & { meter: Pick<MeterReadings['meter'], 'mainSupply'> })[],
): LocationBill | null {
  const mains = meters.filter((m) => m.meter.mainSupply);
  const counted = mains.length > 0 ? mains : meters;
  const bill = combinedBill(counted);
  return bill ? { bill, basis: mains.length > 0 ? 'mainSupply' : 'allMeters', count: counted.length } : null;
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
            }
          : null,
    }),
    first,
  );
}
