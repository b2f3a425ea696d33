import type { DeviceHealth } from '@cm/contracts/check.ts';

// A device that has not been heard from for this long is late, then silent. Meters report every
// interval; concentrators forward in batches, so the thresholds are generous.
const LATE_AFTER_MS = 2 * 60 * 60 * 1000;
const SILENT_AFTER_MS = 24 * 60 * 60 * 1000;

/** How a device is doing, from its status and when it was last heard from. */
export function deviceHealth(status: string, lastSeen: Date | null, now: number): DeviceHealth {
  if (status === 'removed') return 'removed';
  if (!lastSeen) return 'unknown';
  const silence = now - lastSeen.getTime();
  if (silence <= LATE_AFTER_MS) return 'ok';
  return silence <= SILENT_AFTER_MS ? 'late' : 'silent';
}
