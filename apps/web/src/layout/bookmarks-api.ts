import type { BookmarksData, Suggestion } from '@cm/contracts/bookmarks.ts';
import { api } from '@/lib/api.ts';
import { nextTask } from '@/lib/next-task.ts';
import { bookmarksDataLoaded, bookmarkUpdated } from './layout-slice.ts';

// The schemas (and zod) load with the first answer, keeping them out of the start-up bundle.
const loadSchemas = () => import('@cm/contracts/bookmarks.ts');

/** Navbar endpoints: suggestions and bookmarks, starring, and search over meters and locations. */
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
        if (isDone) dispatch(bookmarkUpdated(item));
      },
    }),
    search: build.query<Suggestion[], string>({
      query: (q) => ({ url: '/api/search', params: { q } }),
      transformResponse: async (raw: unknown) => (await loadSchemas()).searchResultSchema.parse(raw).results,
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useGetBookmarksDataQuery, useUpdateBookmarkMutation, useSearchQuery } = bookmarksApi;
