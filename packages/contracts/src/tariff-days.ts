// A tariff window's day types, apart from the tariff schemas (tariffs.ts) so that a page that only
// names the days (the check page's prices panel) does not build every schema of the tariffs API.

/** Day types of a time-of-use window: ISO weekdays, and public holidays (which replace their weekday). */
export const tariffDays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'holiday'] as const;
/** A day type. */
export type TariffDay = (typeof tariffDays)[number];
