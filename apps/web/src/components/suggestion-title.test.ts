import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { quickLinkTitle } from './suggestion-title.ts';

const t = ((key: string, options?: { defaultValue?: string }) => options?.defaultValue ?? key) as TFunction;

const meter = (title: string, subtitle: string): Suggestion => ({
  id: `meter:${title}`,
  kind: 'meter',
  title,
  subtitle,
  link: `/check?meter=${title}`,
  icon: 'meter',
  isBookmarked: true,
});

describe('quickLinkTitle: a navbar bookmark by its name (issue 34 low)', () => {
  it('names a meter as people call it: the caller’s own name, else its label', () => {
    expect(quickLinkTitle(meter('EM-10001', 'My flat · Apt C-101 · Harbour View / Block C'), t)).toBe(
      'My flat',
    );
    expect(quickLinkTitle(meter('EM-10001', 'Apt C-101 · Harbour View / Block C'), t)).toBe('Apt C-101');
  });

  it('falls back to the number for a meter without a name, and keeps a location’s name', () => {
    expect(quickLinkTitle(meter('EM-10004', 'Harbour View / Block C'), t)).toBe('EM-10004');
    const location: Suggestion = {
      ...meter('Riverside Campus – Library', '2 River Road'),
      id: 'location:Riverside Campus – Library',
      kind: 'location',
      icon: 'location',
    };
    expect(quickLinkTitle(location, t)).toBe('Riverside Campus – Library');
  });
});
