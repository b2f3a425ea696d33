import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import { describe, expect, it } from 'vitest';
import { meterNumberOf } from './meter-text.ts';
import { meterSuggestion } from '@/test-support/suggestions.ts';

const meter = meterSuggestion;

// The review's Harbour View: EM-10001 is "Apt C-101", client A calls it "My flat"; EM-10004 is "Apt C-202".
const flat = meter('EM-10001', 'My flat · Apt C-101 · Harbour View / Block C');
const other = meter('EM-10004', 'Apt C-202 · Harbour View / Block C');
const location: Suggestion = {
  ...meter('Harbour View / Block C', 'Rua 1'),
  id: 'location:x',
  kind: 'location',
};

describe('meterNumberOf (issue 34)', () => {
  it("checks the meter the typeahead offers by its name or the caller's own name", () => {
    expect(meterNumberOf('Apt C-101', { items: [flat], forText: 'Apt C-101' })).toBe('EM-10001');
    expect(meterNumberOf(' my flat ', { items: [flat, other], forText: 'my' })).toBe('EM-10001');
    expect(meterNumberOf('apt c-202', { items: [flat, other, location], forText: 'apt c' })).toBe('EM-10004');
  });

  it('checks the one meter offered for this very text, and no guess among several', () => {
    expect(meterNumberOf('C-10', { items: [flat], forText: 'C-10' })).toBe('EM-10001');
    // Offered for an earlier text: not taken for this one.
    expect(meterNumberOf('C-10', { items: [flat], forText: 'C-1' })).toBe('C-10');
    expect(meterNumberOf('Apt C', { items: [flat, other], forText: 'Apt C' })).toBe('Apt C');
  });

  it('keeps a meter number as typed, and a text nothing answers', () => {
    expect(meterNumberOf('em-10001', { items: [flat], forText: 'em-10001' })).toBe('em-10001');
    expect(meterNumberOf('EM 10001', { items: [], forText: 'EM 10001' })).toBe('EM 10001');
    expect(meterNumberOf('Nope', { items: [location], forText: 'Nope' })).toBe('Nope');
  });
});
