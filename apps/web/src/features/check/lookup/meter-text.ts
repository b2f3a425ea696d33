import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import { meterSubtitleNames } from '@cm/contracts/suggestion-ids.ts';

/** What the typeahead offers for a text: its meters, and the text they were found for. */
export interface OfferedMeters {
  items: readonly Suggestion[];
  /** The (trimmed) text the items answer; '' for the suggestions shown before typing. */
  forText: string;
}

const folded = (text: string) => text.trim().toLocaleLowerCase();

/**
 * The meter number to check for a typed text (issue 34: the field offered "EM-10001 · Apt C-101"
 * for "Apt C-101", and Check then looked for a meter numbered "Apt C-101"):
 * - a number an offered meter has, or a text no offered meter answers: as typed (the server reads
 *   `em 10001` as EM-10001 and says when no meter has the number);
 * - the name of exactly one offered meter, or the caller's own name for it ("My flat"): its number;
 * - else, when the typeahead offers exactly one meter for this very text: that one.
 */
export function meterNumberOf(text: string, offered: OfferedMeters): string {
  const typed = text.trim();
  const needle = folded(typed);
  const meters = offered.items.filter((item) => item.kind === 'meter');
  if (meters.some((item) => folded(item.title) === needle)) return typed;
  const named = meters.filter((item) =>
    meterSubtitleNames(item.subtitle).some((name) => folded(name) === needle),
  );
  if (named.length === 1) return named[0]?.title ?? typed;
  if (named.length === 0 && meters.length === 1 && folded(offered.forText) === needle)
    return meters[0]?.title ?? typed;
  return typed;
}
