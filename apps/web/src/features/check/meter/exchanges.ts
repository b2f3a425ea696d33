/**
 * The meters that held a meter's position before it and after it, from the position's meters in
 * time order (an exchange makes two): the old meter's card says which replaced it, the new one's
 * which it replaces — never the replacement as an "earlier" meter. A range without the meter
 * itself lies after its removal (the others followed it) or before its installation.
 */
export function exchangeNeighbours(
  positionMeters: readonly string[] | undefined,
  meterNumber: string,
  isRemoved: boolean,
): { before: string[]; after: string[] } {
  const meters = positionMeters ?? [];
  const index = meters.indexOf(meterNumber);
  if (index < 0) return isRemoved ? { before: [], after: [...meters] } : { before: [...meters], after: [] };
  return { before: meters.slice(0, index), after: meters.slice(index + 1) };
}
