import type { Channel } from '@cm/contracts/check-limits.ts';
import type { LocationReadings, MeterReadings } from '@cm/contracts/check.ts';

const countOf = (column: readonly number[] | undefined) =>
  (column ?? []).reduce((sum, value) => sum + value, 0);

/** Channels of the meter with corrected values in the answer, and how many each has. */
export function correctedChannels(meter: MeterReadings): { channel: Channel; count: number }[] {
  const other: Channel = meter.channel === 'import' ? 'export' : 'import';
  return [
    { channel: meter.channel, count: countOf(meter.series.corrected) },
    { channel: other, count: countOf(meter.series.other?.corrected) },
  ].filter((entry) => entry.count > 0);
}

/** The one meter of an answer with corrected values, or null (the corrections panel's code loads only then). */
export function correctedMeter(readings: LocationReadings): MeterReadings | null {
  const [meter] = readings.meters;
  if (!meter || readings.meters.length !== 1) return null;
  return correctedChannels(meter).length > 0 ? meter : null;
}
