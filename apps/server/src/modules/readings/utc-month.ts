// Readings are partitioned (migration 0005) and packed (readings-store.ts) by UTC month: where such
// a month starts and where the next one does.

/** The start of the UTC month holding `ms`. */
export function utcMonthStart(ms: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** The start of the UTC month after the one starting (or holding) `ms`. */
export function nextUtcMonth(ms: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}
