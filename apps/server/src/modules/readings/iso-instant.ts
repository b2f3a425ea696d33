// COPY needs every staged instant as text, a million times for a large file; Date#toISOString
// costs most of a microsecond each. The date part changes rarely from one row to the next
// (files run in time order per meter), so it is kept, and the time of day is built from tables.

const DAY_MS = 86_400_000;
const PAD2 = Array.from({ length: 60 }, (_v, i) => String(i).padStart(2, '0'));
const PAD3 = Array.from({ length: 1000 }, (_v, i) => String(i).padStart(3, '0'));

let cachedDay = Number.NaN;
let cachedPrefix = '';

/** Exactly `new Date(ms).toISOString()` (2025-01-01T00:15:00.000Z) for an integer `ms`. */
export function isoInstant(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== cachedDay) {
    cachedPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    cachedDay = day;
  }
  let rest = ms - day * DAY_MS;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  const hour = (rest - minute) / 60;
  return `${cachedPrefix}${PAD2[hour] ?? ''}:${PAD2[minute] ?? ''}:${PAD2[second] ?? ''}.${PAD3[milli] ?? ''}Z`;
}
