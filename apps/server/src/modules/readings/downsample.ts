// Min/max-preserving downsampling (M4: Jugel et al., VLDB 2014). The time axis is cut into
// equal-width buckets and each bucket keeps its first, minimum, maximum and last point, so a
// line chart of the result draws the same peaks and troughs as the full series.

/**
 * Bucket of instant `t` among `buckets` equal-width buckets over [t0, t0 + span). Exported so
 * callers and tests agree on where a point falls.
 */
export function m4Bucket(t: number, t0: number, span: number, buckets: number): number {
  return Math.floor(((t - t0) / span) * buckets);
}

/**
 * Indices (ascending, no duplicates) of the points to keep so that at most `maxPoints` remain.
 * `t` must be strictly increasing; `values` may hold nulls or NaN (unknown consumption), which
 * are kept only when they are the first or last point of their bucket. Every bucket keeps its
 * true minimum and maximum. Returns every index when there are at most `maxPoints` points.
 */
export function m4Indices(
  t: ArrayLike<number>,
  values: ArrayLike<number | null>,
  maxPoints: number,
): number[] {
  const n = t.length;
  if (n <= maxPoints) return Array.from({ length: n }, (_, i) => i);
  const buckets = Math.max(1, Math.floor(maxPoints / 4));
  const t0 = t[0] ?? 0;
  const span = (t[n - 1] ?? 0) - t0 + 1;
  const kept: number[] = [];
  let i = 0;
  while (i < n) {
    const bucket = m4Bucket(t[i] ?? 0, t0, span, buckets);
    const first = i;
    let minAt = -1;
    let maxAt = -1;
    let min = Infinity;
    let max = -Infinity;
    for (; i < n && m4Bucket(t[i] ?? 0, t0, span, buckets) === bucket; i++) {
      const value = values[i] ?? null;
      if (value === null || Number.isNaN(value)) continue;
      if (value < min) {
        min = value;
        minAt = i;
      }
      if (value > max) {
        max = value;
        maxAt = i;
      }
    }
    const last = i - 1;
    // Four candidates in time order, without duplicates.
    const a = minAt < 0 ? first : Math.min(minAt, maxAt);
    const b = minAt < 0 ? first : Math.max(minAt, maxAt);
    kept.push(first);
    if (a > first) kept.push(a);
    if (b > a && b > first) kept.push(b);
    if (last > Math.max(b, first)) kept.push(last);
  }
  return kept;
}
