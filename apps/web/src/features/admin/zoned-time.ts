import { DAY_MS, isoInZone, utcOffsetMs } from '@cm/contracts/zoned-time.ts';

/*
 * Wall-clock times at a location, in its IANA zone (not the browser's): an administrator in
 * Lisbon exchanging a meter in Berlin types the time the fitter read on site.
 */

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * `2026-03-29T02:30` at `Europe/Berlin` → an ISO instant with the zone's offset
 * (`2026-03-29T03:30:00+02:00`). A time skipped by a DST change moves forward by the gap; an
 * ambiguous one (the repeated hour) takes the earlier instant. Null when the text is not a
 * local date-time.
 */
export function zonedLocalToIso(local: string, timeZone: string): string | null {
  const match = LOCAL.exec(local);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? '0'));
  if (Number.isNaN(wall)) return null;
  // The offsets in force around that day (zones move by at most a day's worth of hours).
  const before = utcOffsetMs(wall - DAY_MS, timeZone);
  const after = utcOffsetMs(wall + DAY_MS, timeZone);
  const valid = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => wall - utcOffsetMs(instant, timeZone) === instant);
  // None valid: the time falls in a DST gap; reading it with the earlier offset moves it forward.
  const instant = valid.length > 0 ? Math.min(...valid) : wall - before;
  return isoInZone(instant, timeZone);
}

/** The wall-clock value for a `datetime-local` input, for an instant at a zone (`2026-03-29T03:30`). */
export function instantToZonedLocal(instant: number, timeZone: string): string {
  return isoInZone(instant, timeZone).slice(0, 16);
}
