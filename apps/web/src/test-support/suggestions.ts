import type { Suggestion } from '@cm/contracts/bookmarks.ts';

/** A meter as the search and suggestions list it, for tests. */
export const meterSuggestion = (number: string, subtitle: string): Suggestion => ({
  id: `meter:${number}`,
  kind: 'meter',
  title: number,
  subtitle,
  link: `/check?meter=${number}`,
  icon: 'meter',
  isBookmarked: false,
});
