import type { DeviceHealth } from '@cm/contracts/check.ts';

// A device that has not been heard from for this long is late, then silent. Concentrators forward
// in batches, so their thresholds are generous.
const LATE_AFTER_MS = 2 * 60 * 60 * 1000;
const SILENT_AFTER_MS = 24 * 60 * 60 * 1000;
// A meter reports every interval: two intervals without data (at least half an hour) and its
// readings are missing, as the totals count them, so it is late then (issue 34: "REPORTING · seen
// 1 hour ago" while the totals said its readings were missing).
const METER_LATE_INTERVALS = 2;
const METER_LATE_AT_LEAST_MS = 30 * 60 * 1000;

/**
 * How a device is doing, from its status and when it was last heard from. A meter gives its
 * interval (`intervalMinutes`): it is late after two of them without data.
 */
export function deviceHealth(
  status: string,
  lastSeen: Date | null,
  now: number,
  intervalMinutes?: number,
): DeviceHealth {
  if (status === 'removed') return 'removed';
  if (!lastSeen) return 'unknown';
  const silence = now - lastSeen.getTime();
  const lateAfter =
    intervalMinutes === undefined
      ? LATE_AFTER_MS
      : Math.min(
          SILENT_AFTER_MS,
          Math.max(METER_LATE_AT_LEAST_MS, METER_LATE_INTERVALS * intervalMinutes * 60_000),
        );
  if (silence <= lateAfter) return 'ok';
  return silence <= SILENT_AFTER_MS ? 'late' : 'silent';
}
