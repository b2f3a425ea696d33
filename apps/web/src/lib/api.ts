import { createApi } from '@reduxjs/toolkit/query/react';
import { httpBaseQuery } from './http-client.ts';

/**
 * The one RTK Query API; features add their endpoints with `api.injectEndpoints` in their own
 * `api.ts`. The logged-in layout injects it into the store (app/store.ts `injectApi`), so every
 * page under the layout can use it; the login page does not load RTK Query.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: httpBaseQuery,
  tagTypes: ['Bookmarks', 'CurrentUser', 'Alerts', 'OwnAlertRules'],
  // Background refetches stay quiet: errors reach the components, never a global toast.
  endpoints: () => ({}),
});
