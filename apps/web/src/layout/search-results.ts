import type { Suggestion } from '@cm/contracts/bookmarks.ts';

/** Debounce of the server search while typing (ms). */
export const SEARCH_DEBOUNCE_MS = 250;
const MAX_RESULTS = 20;

/**
 * Local suggestions matching the query (by title, or by subtitle: a meter's name, a location's
 * address), then the server's meters and locations not already listed.
 */
export function mergeResults(
  query: string,
  bookmarks: Suggestion[],
  suggestions: Suggestion[],
  remote: Suggestion[],
  titleOf: (item: Suggestion) => string = (item) => item.title,
): Suggestion[] {
  const needle = query.trim().toLocaleLowerCase();
  const seen = new Set<string>();
  const out: Suggestion[] = [];
  const local = needle === '' ? [...bookmarks, ...suggestions] : suggestions;
  for (const item of [...local, ...remote]) {
    if (seen.has(item.id)) continue;
    const matches = (text: string) => text.toLocaleLowerCase().includes(needle);
    if (needle !== '' && !remote.includes(item) && !matches(titleOf(item)) && !matches(item.subtitle))
      continue;
    seen.add(item.id);
    out.push(item);
    if (out.length >= MAX_RESULTS) break;
  }
  return out;
}
