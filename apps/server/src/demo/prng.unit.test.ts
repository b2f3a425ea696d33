import { describe, expect, it } from 'vitest';
import { createRng } from './prng.ts';

const draw = (seed: number, stream: string, n = 1000) => {
  const rng = createRng(seed, stream);
  return Array.from({ length: n }, () => rng.next());
};

describe('seeded PRNG', () => {
  it('repeats the same sequence for the same seed and stream', () => {
    expect(draw(42, 'meter:1')).toEqual(draw(42, 'meter:1'));
  });

  it('gives different sequences for another seed or another stream', () => {
    expect(draw(42, 'meter:1')).not.toEqual(draw(43, 'meter:1'));
    expect(draw(42, 'meter:1')).not.toEqual(draw(42, 'meter:2'));
  });

  it('stays in [0, 1) and spreads evenly', () => {
    const values = draw(7, 'spread', 100_000);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeCloseTo(0.5, 2);
    const deciles = new Array<number>(10).fill(0);
    for (const v of values) deciles[Math.floor(v * 10)] = (deciles[Math.floor(v * 10)] ?? 0) + 1;
    for (const count of deciles) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });

  it('draws integers within both bounds', () => {
    const rng = createRng(1, 'ints');
    const seen = new Set(Array.from({ length: 1000 }, () => rng.int(1, 4)));
    expect([...seen].sort()).toEqual([1, 2, 3, 4]);
  });
});
