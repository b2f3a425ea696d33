import type { LocationReadings } from '@cm/contracts/check.ts';
import { memo, useMemo } from 'react';
import { answerRange } from '../model/date-range.ts';
import { billCurrency, locationBill } from '../model/bill.ts';
import { OwnAlertsPanel } from '../meter/own-alerts-panel.tsx';
import { BaseloadPanel } from './baseload-panel.tsx';
import { CleanestHoursPanel } from './cleanest-hours-panel.tsx';
import { TariffPrices } from './tariff-prices.tsx';

/**
 * The panels below the chart that ask for figures of their own: tomorrow's cleanest hours, the
 * prices on the bill, the always-on power and the meter's own alerts. The readings section hands
 * them the answer in the commit after the chart's (useValueAfterCommit), so that a phone shows the
 * totals and the chart first (issue 38). Each is a memo component: given the same range object
 * while it means the same, none renders again for an answer that does not change it.
 */
export const SecondaryPanels = memo(function SecondaryPanels({ readings }: { readings: LocationReadings }) {
  const answered = answerRange(readings);
  const range = useMemo(() => ({ from: answered.from, to: answered.to }), [answered.from, answered.to]);
  const hasBill = useMemo(() => locationBill(readings.meters) !== null, [readings.meters]);
  const { location, meters } = readings;
  const single = meters.length === 1 ? meters[0] : undefined;
  return (
    <>
      {/* The location has a carbon series: tomorrow's cleanest hours, for a meter or the whole site. */}
      {meters.some((meter) => meter.carbon) ? (
        <CleanestHoursPanel locationName={location.publicName} timeZone={location.timeZone} />
      ) : null}
      {hasBill ? <TariffPrices locationName={location.publicName} range={range} /> : null}
      {single ? <BaseloadPanel meterNumber={single.meter.meterNumber} range={range} /> : null}
      {/* A meter's own alerts: the customer's budget and high-use days on it (issue 34). */}
      {single && single.meter.status !== 'removed' ? (
        <OwnAlertsPanel meterNumber={single.meter.meterNumber} currency={billCurrency(readings)} />
      ) : null}
    </>
  );
});
