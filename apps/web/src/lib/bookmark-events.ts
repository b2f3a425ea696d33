import { createAction } from '@reduxjs/toolkit';
import type { BookmarksData, Suggestion } from '@cm/contracts/bookmarks.ts';

/*
 * What the bookmarks API tells the store. The layout slice keeps the suggestions and bookmarks
 * (spec §3, §4) and reacts to these; the API (lib/bookmarks-api.ts) only announces them, so it
 * knows nothing of the layout.
 */

/** The bookmarks data loaded: suggestions and bookmarks are replaced with the server's (spec §4). */
export const bookmarksDataLoaded = createAction<BookmarksData>('bookmarks/dataLoaded');

/** A bookmark update succeeded for this item (the whole suggestion: it may be a search result). */
export const bookmarkUpdated = createAction<Suggestion>('bookmarks/updated');
