/*
 * Wall-clock times at a location, in its IANA zone (not the browser's): an administrator in
 * Lisbon exchanging a meter in Berlin types the time the fitter read on site.
 */

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

function offsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? '0');
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

function pad(value: number, width = 2): string {
  return String(Math.abs(value)).padStart(width, '0');
}

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
  const before = offsetMinutes(wall - 86_400_000, timeZone);
  const after = offsetMinutes(wall + 86_400_000, timeZone);
  const valid = [...new Set([before, after])]
    .map((offset) => wall - offset * 60_000)
    .filter((instant) => wall - offsetMinutes(instant, timeZone) * 60_000 === instant);
  // None valid: the time falls in a DST gap; reading it with the earlier offset moves it forward.
  const instant = valid.length > 0 ? Math.min(...valid) : wall - before * 60_000;
  return isoWithOffset(instant, timeZone);
}

/** An instant as ISO 8601 with the zone's offset at that instant (what the API wants and a person can read). */
export function isoWithOffset(instant: number, timeZone: string): string {
  const offset = offsetMinutes(instant, timeZone);
  const local = new Date(instant + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.trunc(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  );
}

/** The wall-clock value for a `datetime-local` input, for an instant at a zone (`2026-03-29T03:30`). */
export function instantToZonedLocal(instant: number, timeZone: string): string {
  return isoWithOffset(instant, timeZone).slice(0, 16);
}
