// The one key of what a meter indicator's readings over a range are computed from: the meters held
// with their readings version (changed by every write to their readings, in whatever process), the
// settings the engine reads from them, the range and the zone. What is remembered of the readings
// (the folded demand lookbacks, demand-history.ts; the priced walks, the readings engine's
// remembered-walks.ts) is keyed by it, so a write or a changed setting is never answered stale.

import type { LocationMeter } from '../directory/index.ts';

/** The key of `held`'s readings over [fromMs, toMs] in `timeZone`: changes with anything they are computed from. */
export function heldReadingsKey(
  held: readonly LocationMeter[],
  fromMs: number,
  toMs: number,
  timeZone: string,
): string {
  const meters = held.map((meter) =>
    [
      meter.id,
      meter.readingsVersion,
      meter.meterNumber,
      meter.multiplier,
      meter.registerDigits,
      meter.intervalMinutes,
      meter.installedAt.getTime(),
      meter.removedAt?.getTime() ?? '',
    ].join(':'),
  );
  return `${timeZone}|${fromMs}|${toMs}|${meters.join(',')}`;
}
