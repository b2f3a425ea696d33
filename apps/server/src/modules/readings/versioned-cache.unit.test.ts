import { describe, expect, it } from 'vitest';
import { VersionedCache } from './versioned-cache.ts';

const value = (name: string) => ({ name });

describe('versioned cache (decoded months)', () => {
  it('answers a month only at the version it holds', () => {
    const cache = new VersionedCache<{ name: string }>(1_000);
    const month = value('7:1:0');
    cache.set('7:1:0', 41, month, 170);
    expect(cache.get('7:1:0', 41)).toBe(month);
    expect(cache.get('7:1:0', 42)).toBeUndefined();
    expect(cache.get('8:1:0', 41)).toBeUndefined();
    expect(cache.versions(['7:1:0', '7:1:1'])).toEqual([41]);
    cache.set('7:1:0', 42, value('again'), 170);
    expect(cache.get('7:1:0', 41)).toBeUndefined();
    expect(cache.size).toBe(170);
  });

  it('lets the least recently used months go once full', () => {
    const cache = new VersionedCache<{ name: string }>(300);
    cache.set('a', 1, value('a'), 100);
    cache.set('b', 2, value('b'), 100);
    cache.set('c', 3, value('c'), 100);
    cache.get('a', 1); // now the most recent
    cache.set('d', 4, value('d'), 100);
    expect(cache.versions(['a', 'b', 'c', 'd'])).toEqual([1, 3, 4]);
    expect(cache.size).toBe(300);
    cache.set('e', 5, value('e'), 1_000); // larger than the whole cache: not kept
    expect(cache.versions(['e'])).toEqual([]);
  });
});
