import { z } from 'zod';
import { optionalTextParam, textParam } from './text.ts';

/** How many location and meter suggestions `GET /api/bookmarks/data` returns at most; the rest are found with `/api/search`. */
export const SUGGESTION_LIMIT = 50;

/** Kinds of things a user can star. */
export const suggestionKinds = ['page', 'location', 'meter'] as const;

/** A suggestion (spec §3: id and isBookmarked; the other fields are ours). Ids look like `page:check`, `location:12`, `meter:EM-0001`. */
export const suggestionSchema = z.object({
  id: z.string(),
  kind: z.enum(suggestionKinds),
  /** A meter's number, a location's public name, a page's English title. */
  title: z.string(),
  /** What tells two alike apart: a meter's name and location ("HVAC · Riverside Campus – Library"), a location's address; '' for pages. */
  subtitle: z.string(),
  link: z.string(),
  icon: z.string(),
  isBookmarked: z.boolean(),
});
/** A suggestion. */
export type Suggestion = z.infer<typeof suggestionSchema>;

/** `GET /api/bookmarks/data` answer. */
export const bookmarksDataSchema = z.object({
  suggestions: z.array(suggestionSchema),
  bookmarks: z.array(suggestionSchema),
  /** What the caller calls its meters ("My flat"), by meter number: its own names, seen by it alone. */
  nicknames: z.record(z.string(), z.string()),
});
/** Bookmarks data. */
export type BookmarksData = z.infer<typeof bookmarksDataSchema>;

/** `POST /api/bookmarks/update` body. */
export const bookmarkUpdateBodySchema = z.object({
  id: textParam('id', 240),
});

/** `POST /api/bookmarks/update` answer (the browser flips isBookmarked itself, spec §4). */
export const bookmarkUpdateResultSchema = z.object({ id: z.string(), isBookmarked: z.boolean() });

/** Most results `/api/search` returns. */
export const SEARCH_LIMIT = 20;

/** `GET /api/search` query. */
export const searchQuerySchema = z.object({
  q: textParam('q', 100),
});

/** `GET /api/search` answer: the caller's meters and locations matching q, best first. */
export const searchResultSchema = z.object({ results: z.array(suggestionSchema) });
/** Search results. */
export type SearchResult = z.infer<typeof searchResultSchema>;

/** `PUT /api/bookmarks/nickname` body: the caller's own name for one of its meters; '' removes it. */
export const meterNicknameBodySchema = z.object({
  meterNumber: textParam('meterNumber', 64),
  nickname: optionalTextParam('nickname', 60),
});

/** `PUT /api/bookmarks/nickname` answer. */
export const meterNicknameSchema = z.object({ meterNumber: z.string(), nickname: z.string() });
/** A meter's nickname. */
export type MeterNickname = z.infer<typeof meterNicknameSchema>;
