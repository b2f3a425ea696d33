/**
 * IANA time zones the browser knows, for the location select. `Intl.supportedValuesOf` leaves
 * out aliases such as `UTC` on some engines, so it is added; a stored zone the list lacks (an
 * old alias) is kept selectable so editing a location never changes its zone by accident.
 */
export function timeZoneOptions(current?: string): string[] {
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = new Set(zones);
  all.add('UTC');
  if (current) all.add(current);
  return [...all].sort((a, b) => a.localeCompare(b));
}
