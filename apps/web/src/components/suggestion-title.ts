import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import type { TFunction } from 'i18next';

/**
 * The title to show for a suggestion: pages are named in the interface language (the server
 * sends English page titles), meters and locations keep their own names.
 */
export function suggestionTitle(item: Suggestion, t: TFunction): string {
  if (item.kind !== 'page') return item.title;
  const page = item.id.replace(/^page:/, '');
  return t(`menu.${page}`, { defaultValue: item.title });
}
