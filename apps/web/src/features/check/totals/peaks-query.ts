import type { LocationReadings } from '@cm/contracts/check.ts';
import type { MonthlyPeaksQuery } from '@cm/contracts/demand.ts';
import { localDateOf } from '@cm/contracts/zoned-time.ts';

/**
 * The monthly peaks that go with a readings answer: the one meter it shows (or the whole
 * location), over the 12 local months ending with the month the range ends in; null when no meter
 * has interval energy in the range (no demand to show).
 */
export function peaksQueryOf(readings: LocationReadings): MonthlyPeaksQuery | null {
  const [first] = readings.meters;
  if (!first || !readings.meters.some((meter) => meter.totals.demand !== null)) return null;
  // The range's end is exclusive: its last instant names the month.
  const month = localDateOf(Date.parse(readings.to) - 1, readings.location.timeZone).slice(0, 7);
  return {
    name: readings.location.publicName,
    ...(readings.meters.length === 1 ? { meterInd: first.meterInd } : {}),
    Month: month,
  };
}
