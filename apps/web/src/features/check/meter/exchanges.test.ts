import { describe, expect, it } from 'vitest';
import { exchangeNeighbours } from './exchanges.ts';

describe('exchangeNeighbours', () => {
  it('tells the old meter what replaced it and the new one what it replaces', () => {
    const position = ['EM-10013', 'EM-10025'];
    expect(exchangeNeighbours(position, 'EM-10013', true)).toEqual({ before: [], after: ['EM-10025'] });
    expect(exchangeNeighbours(position, 'EM-10025', false)).toEqual({ before: ['EM-10013'], after: [] });
  });

  it("names a removed meter's successors as later, when the range holds only them (issue 34.4)", () => {
    // A range after EM-10013's removal holds only EM-10025: it replaced EM-10013, never the reverse.
    expect(exchangeNeighbours(['EM-10025'], 'EM-10013', true)).toEqual({ before: [], after: ['EM-10025'] });
    // A range before a meter was installed holds only the meters before it.
    expect(exchangeNeighbours(['EM-10013'], 'EM-10025', false)).toEqual({ before: ['EM-10013'], after: [] });
  });

  it('has no neighbours without an exchange', () => {
    expect(exchangeNeighbours(['EM-10001'], 'EM-10001', false)).toEqual({ before: [], after: [] });
    expect(exchangeNeighbours(undefined, 'EM-10001', false)).toEqual({ before: [], after: [] });
  });
});
