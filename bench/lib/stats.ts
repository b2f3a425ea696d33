/** Percentile of already collected samples (nearest rank). */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Percentile of one measure of each item. */
export const percentileOf = <T>(items: readonly T[], measure: (item: T) => number, p: number): number =>
  percentile(items.map(measure), p);

/** Times `work` `runs` times after `warmup` runs; answers the samples in milliseconds. */
export async function sample(work: () => Promise<unknown>, runs: number, warmup = 5): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return samples;
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
