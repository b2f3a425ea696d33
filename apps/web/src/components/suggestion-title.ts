import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import type { TFunction } from 'i18next';
import { meterSubtitleNames } from '@cm/contracts/suggestion-ids.ts';

/**
 * The title to show for a suggestion: pages are named in the interface language (the server
 * sends English page titles), meters and locations keep their own names.
 */
export function suggestionTitle(item: Suggestion, t: TFunction): string {
  if (item.kind !== 'page') return item.title;
  const page = item.id.replace(/^page:/, '');
  return t(`menu.${page}`, { defaultValue: item.title });
}

/**
 * A bookmark's short name in the navbar: what people call a meter (the caller's own name for it,
 * else its label: "My flat", "Apt C-101") rather than its number alone; its number when it has no
 * name; a location's or page's title. The full name goes in the tooltip (issue 34: numbers only).
 */
export function quickLinkTitle(item: Suggestion, t: TFunction): string {
  if (item.kind !== 'meter') return suggestionTitle(item, t);
  return meterSubtitleNames(item.subtitle)[0] ?? item.title;
}
