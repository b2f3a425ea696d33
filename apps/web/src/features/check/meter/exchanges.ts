/**
 * The meters that held a meter's position before it and after it, from the position's meters in
 * time order (an exchange makes two): the old meter's card says which replaced it, the new one's
 * which it replaces — never the replacement as an "earlier" meter.
 */
export function exchangeNeighbours(
  positionMeters: readonly string[] | undefined,
  meterNumber: string,
): { before: string[]; after: string[] } {
  const meters = positionMeters ?? [];
  const index = meters.indexOf(meterNumber);
  if (index < 0) return { before: meters.filter((number) => number !== meterNumber), after: [] };
  return { before: meters.slice(0, index), after: meters.slice(index + 1) };
}
