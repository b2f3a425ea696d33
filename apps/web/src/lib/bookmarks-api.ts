import type { BookmarksData, MeterNickname, Suggestion } from '@cm/contracts/bookmarks.ts';
import { api } from './api.ts';
import { bookmarkUpdated, bookmarksDataLoaded } from './bookmark-events.ts';
import { nextTask } from './next-task.ts';

// The schemas (and zod) load with the first answer, keeping them out of the start-up bundle.
const loadSchemas = () => import('@cm/contracts/bookmarks.ts');

/**
 * The caller's suggestions and bookmarks, starring, and the search over its meters and locations:
 * server data the navbar and the check page both read, so it lives here, in one cache.
 */
export const bookmarksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBookmarksData: build.query<BookmarksData, void>({
      query: () => '/api/bookmarks/data',
      transformResponse: async (raw: unknown) => {
        const { bookmarksDataSchema } = await loadSchemas();
        // The schemas' first evaluation (zod) and the re-render of the navbar and the page's
        // suggestions, in separate tasks.
        await nextTask();
        return bookmarksDataSchema.parse(raw);
      },
      providesTags: ['Bookmarks'],
      async onQueryStarted(_, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(bookmarksDataLoaded(data));
      },
    }),
    /** Takes the whole suggestion so the layout slice can add it to the bookmarks list; sends only its id. */
    updateBookmark: build.mutation<{ id: string; isBookmarked: boolean }, Suggestion>({
      query: (suggestion) => ({ url: '/api/bookmarks/update', method: 'POST', body: { id: suggestion.id } }),
      transformResponse: async (raw: unknown) => (await loadSchemas()).bookmarkUpdateResultSchema.parse(raw),
      async onQueryStarted(item, { dispatch, queryFulfilled }) {
        const isDone = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (!isDone) return;
        dispatch(bookmarkUpdated(item));
        // The cached answer follows too, so that every star on the page (the meter card's) agrees.
        dispatch(
          bookmarksApi.util.updateQueryData('getBookmarksData', undefined, (data) => {
            const bookmarked = !item.isBookmarked;
            for (const suggestion of data.suggestions)
              if (suggestion.id === item.id) suggestion.isBookmarked = bookmarked;
            data.bookmarks = bookmarked
              ? [...data.bookmarks.filter((b) => b.id !== item.id), { ...item, isBookmarked: true }]
              : data.bookmarks.filter((b) => b.id !== item.id);
          }),
        );
      },
    }),
    /** The caller's own name for one of its meters ('' removes it); the cached data follows. */
    nameMeter: build.mutation<MeterNickname, MeterNickname>({
      query: (body) => ({ url: '/api/bookmarks/nickname', method: 'PUT', body }),
      transformResponse: async (raw: unknown) => (await loadSchemas()).meterNicknameSchema.parse(raw),
      async onQueryStarted(_, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        dispatch(
          bookmarksApi.util.updateQueryData('getBookmarksData', undefined, (cached) => {
            if (data.nickname === '') delete cached.nicknames[data.meterNumber];
            else cached.nicknames[data.meterNumber] = data.nickname;
          }),
        );
      },
    }),
    /** Typeahead over the caller's meters and locations (the navbar search and the check page's lookup). */
    search: build.query<Suggestion[], string>({
      query: (q) => ({ url: '/api/search', params: { q } }),
      transformResponse: async (raw: unknown) => (await loadSchemas()).searchResultSchema.parse(raw).results,
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useGetBookmarksDataQuery, useUpdateBookmarkMutation, useSearchQuery, useNameMeterMutation } =
  bookmarksApi;

const NO_SUGGESTIONS: Suggestion[] = [];

/**
 * The caller's suggestions, from the answer the signed-in layout loads (no request of its own):
 * the component re-renders when they arrive, and only then.
 */
export function useSuggestions(): Suggestion[] {
  return useGetBookmarksDataQuery(undefined, {
    selectFromResult: ({ data }) => ({ suggestions: data?.suggestions ?? NO_SUGGESTIONS }),
  }).suggestions;
}

/** Whether the caller has starred this id, from the same cached answer (false until it is in). */
export function useIsBookmarked(id: string): boolean {
  return useGetBookmarksDataQuery(undefined, {
    selectFromResult: ({ data }) => ({ isBookmarked: data?.bookmarks.some((b) => b.id === id) ?? false }),
  }).isBookmarked;
}

/** What the caller calls this meter ('' when it has not named it), from the same cached answer. */
export function useMeterNickname(meterNumber: string): string {
  return useGetBookmarksDataQuery(undefined, {
    selectFromResult: ({ data }) => ({ nickname: data?.nicknames[meterNumber] ?? '' }),
  }).nickname;
}
