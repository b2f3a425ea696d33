import { describe, expect, it } from 'vitest';
import { DecodedChunkCache, type MonthColumns } from './chunk-cache.ts';

const month = (readings: number): MonthColumns => ({
  t: new Float64Array(readings),
  milli: new Float64Array(readings),
  quality: new Uint8Array(readings),
});
const BYTES_PER_READING = 17;

describe('decoded chunk cache', () => {
  it('answers a month only at the version it holds', () => {
    const cache = new DecodedChunkCache(1_000_000);
    const columns = month(10);
    cache.set(7, 0, 41, columns);
    expect(cache.get(7, 0, 41)).toBe(columns);
    expect(cache.get(7, 0, 42)).toBeUndefined();
    expect(cache.get(8, 0, 41)).toBeUndefined();
    expect(cache.versions(7, [0, 1])).toEqual([41]);
    cache.set(7, 0, 42, month(10));
    expect(cache.get(7, 0, 41)).toBeUndefined();
    expect(cache.size).toBe(10 * BYTES_PER_READING);
  });

  it('lets the least recently used months go once full', () => {
    const cache = new DecodedChunkCache(3 * 10 * BYTES_PER_READING);
    cache.set(1, 0, 1, month(10));
    cache.set(1, 1, 2, month(10));
    cache.set(1, 2, 3, month(10));
    cache.get(1, 0, 1); // month 0 is now the most recent
    cache.set(1, 3, 4, month(10));
    expect(cache.versions(1, [0, 1, 2, 3])).toEqual([1, 3, 4]);
    expect(cache.size).toBe(3 * 10 * BYTES_PER_READING);
    cache.set(1, 4, 5, month(100)); // larger than the whole cache: not kept
    expect(cache.versions(1, [4])).toEqual([]);
  });
});
