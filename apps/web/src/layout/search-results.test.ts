import { describe, expect, it } from 'vitest';
import { mergeResults } from './search-results.ts';
import { meterSuggestion } from '@/test-support/suggestions.ts';

const meter = meterSuggestion;

describe('mergeResults', () => {
  const hvac = meter('EM-10009', 'HVAC · Riverside Campus – Library');
  const cafe = meter('EM-10010', 'Café · Riverside Campus – Library');
  const flat = meter('EM-10001', 'Apt C-101 · Harbour View / Block C');

  it('finds a meter by its name as well as by its number (issue 17.10)', () => {
    expect(mergeResults('hvac', [], [hvac, cafe, flat], []).map((s) => s.id)).toEqual(['meter:EM-10009']);
    expect(mergeResults('riverside', [], [hvac, cafe, flat], []).map((s) => s.id)).toEqual([
      'meter:EM-10009',
      'meter:EM-10010',
    ]);
    expect(mergeResults('10001', [], [hvac, cafe, flat], []).map((s) => s.id)).toEqual(['meter:EM-10001']);
  });

  it('lists bookmarks first before anything is typed, and the server results after the local ones', () => {
    const starred = { ...flat, isBookmarked: true };
    expect(mergeResults('', [starred], [hvac, flat], []).map((s) => s.id)).toEqual([
      'meter:EM-10001',
      'meter:EM-10009',
    ]);
    expect(mergeResults('em', [], [hvac], [cafe, hvac]).map((s) => s.id)).toEqual([
      'meter:EM-10009',
      'meter:EM-10010',
    ]);
  });
});
