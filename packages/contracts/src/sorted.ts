/*
 * Binary searches over ascending lists of numbers (instants in ms, bucket edges). Both give an
 * insertion index, never a clamped one: the items before it are < (lowerBound) or ≤ (upperBound)
 * `value`, so "the last item at or before `value`" is `upperBound(…) - 1`, and -1 when there is none.
 */

/** First index in [from, length] whose item is ≥ `value` (`sorted.length` when none is). */
export function lowerBound(sorted: ArrayLike<number>, value: number, from = 0): number {
  let low = from;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] ?? Infinity) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** First index in [from, length] whose item is > `value` (`sorted.length` when none is). */
export function upperBound(sorted: ArrayLike<number>, value: number, from = 0): number {
  let low = from;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] ?? Infinity) <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}
