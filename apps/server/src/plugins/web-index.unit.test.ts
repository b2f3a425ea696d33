import { describe, expect, it } from 'vitest';
import { pickEncoding } from './web-index.ts';

describe('pickEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['deflate', undefined],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['GZIP', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.2, gzip;q=0.8', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['br;q=0, *', 'gzip'],
    [['gzip', 'br'], 'br'],
  ] as const)('%j → %s', (header, expected) => {
    expect(pickEncoding(header as string | string[] | undefined)).toBe(expected);
  });
});
