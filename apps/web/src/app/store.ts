import {
  combineSlices,
  configureStore,
  createDynamicMiddleware,
  createListenerMiddleware,
  isAnyOf,
  type Middleware,
} from '@reduxjs/toolkit';
import { authSlice } from '@/features/auth/auth-slice.ts';
import { layoutSlice, menuCollapsedChanged, rtlChanged, skinChanged } from '@/layout/layout-slice.ts';
import type { api } from '@/lib/api.ts';
import { sessionEnded } from '@/lib/session-events.ts';
import { storageKeys, writeJson } from '@/lib/storage.ts';

/**
 * The store. Auth and layout are there from the start; the RTK Query API (and its cache) is
 * injected by the logged-in layout, so the login page does not load RTK Query at all.
 */
const rootReducer = combineSlices(authSlice, layoutSlice).withLazyLoadedSlices<{
  [api.reducerPath]: ReturnType<typeof api.reducer>;
}>();
const listener = createListenerMiddleware();
const dynamicMiddleware = createDynamicMiddleware();

export const store = configureStore({
  reducer: rootReducer,
  middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(dynamicMiddleware.middleware),
  // RTK Query's answers reach the page at the end of the task they arrive in, not at the next
  // animation frame (the default): a year of readings is drawn up to a frame sooner. Dispatches
  // of one task still notify the page once.
  enhancers: (getDefault) => getDefault({ autoBatch: { type: 'tick' } }),
});

export type RootState = ReturnType<typeof rootReducer>;
export type AppDispatch = typeof store.dispatch;
export type AppStore = typeof store;

// Skin, direction and menu-collapsed are kept in local storage (spec §3), outside the reducers.
listener.startListening({
  matcher: isAnyOf(skinChanged, rtlChanged, menuCollapsedChanged),
  effect: (action) => {
    if (skinChanged.match(action)) writeJson(storageKeys.skin, action.payload);
    if (rtlChanged.match(action)) writeJson(storageKeys.isRtl, action.payload);
    if (menuCollapsedChanged.match(action)) writeJson(storageKeys.menuCollapsed, action.payload);
  },
});

let isApiInjected = false;

/** Adds the RTK Query API to the store (once). Its cache is dropped whenever a session ends. */
export function injectApi(instance: typeof api): void {
  if (isApiInjected) return;
  isApiInjected = true;
  rootReducer.inject(instance);
  const resetOnSessionEnd: Middleware = (storeApi) => (next) => (action) => {
    const result = next(action);
    if (sessionEnded.match(action)) storeApi.dispatch(instance.util.resetApiState());
    return result;
  };
  dynamicMiddleware.addMiddleware(instance.middleware, resetOnSessionEnd);
}
