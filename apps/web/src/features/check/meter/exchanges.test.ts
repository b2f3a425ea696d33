import { describe, expect, it } from 'vitest';
import { exchangeNeighbours } from './exchanges.ts';

describe('exchangeNeighbours', () => {
  it('tells the old meter what replaced it and the new one what it replaces', () => {
    const position = ['EM-10013', 'EM-10025'];
    expect(exchangeNeighbours(position, 'EM-10013')).toEqual({ before: [], after: ['EM-10025'] });
    expect(exchangeNeighbours(position, 'EM-10025')).toEqual({ before: ['EM-10013'], after: [] });
  });

  it('has no neighbours without an exchange', () => {
    expect(exchangeNeighbours(['EM-10001'], 'EM-10001')).toEqual({ before: [], after: [] });
    expect(exchangeNeighbours(undefined, 'EM-10001')).toEqual({ before: [], after: [] });
  });
});
