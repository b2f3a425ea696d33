import { instantOfWall, isoInZone } from '@cm/contracts/zoned-time.ts';

/*
 * Wall-clock times at a location, in its IANA zone (not the browser's): an administrator in
 * Lisbon exchanging a meter in Berlin types the time the fitter read on site.
 */

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * `2026-03-29T02:30` at `Europe/Berlin` → an ISO instant with the zone's offset
 * (`2026-03-29T03:30:00+02:00`), by the DST policy for typed times (contracts/zoned-time.ts:
 * a skipped time moves forward by the gap, the repeated hour takes its earlier instant). Null
 * when the text is not a local date-time.
 */
export function zonedLocalToIso(local: string, timeZone: string): string | null {
  const match = LOCAL.exec(local);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? '0'));
  if (Number.isNaN(wall)) return null;
  return isoInZone(instantOfWall(wall, timeZone), timeZone);
}

/** The wall-clock value for a `datetime-local` input, for an instant at a zone (`2026-03-29T03:30`). */
export function instantToZonedLocal(instant: number, timeZone: string): string {
  return isoInZone(instant, timeZone).slice(0, 16);
}
