/*
 * What a bookmark points at, written once for the server and the web app (zod-free, so the check
 * page can star a meter without loading the schemas): ids look like `page:check`,
 * `location:<public name>` and `meter:<meter number>`; meters and locations open on the check page.
 */

/** Things a user can star that live in the directory (pages are fixed). */
export type ItemKind = 'location' | 'meter';

/** A meter's or location's bookmark id. */
export function itemSuggestionId(kind: ItemKind, key: string): string {
  return `${kind}:${key}`;
}

/** Where a meter's or location's bookmark opens: its check page. */
export function itemSuggestionLink(kind: ItemKind, key: string): string {
  return kind === 'meter'
    ? `/check?meter=${encodeURIComponent(key)}`
    : `/check?location=${encodeURIComponent(key)}`;
}

/**
 * A meter's subtitle in lists: the caller's own name for it, its name and its location ("My flat ·
 * Apt C-101 · Harbour View / Block C"), each only when there is one.
 */
export function meterSubtitle(label: string, locationName: string, nickname = ''): string {
  return [...new Set([nickname, label])]
    .filter((name) => name !== '')
    .concat(locationName)
    .join(SUBTITLE_SEPARATOR);
}

const SUBTITLE_SEPARATOR = ' · ';

/** The names a meter's subtitle gives it (the caller's own, then its label), its location left out. */
export function meterSubtitleNames(subtitle: string): string[] {
  return subtitle.split(SUBTITLE_SEPARATOR).slice(0, -1);
}
