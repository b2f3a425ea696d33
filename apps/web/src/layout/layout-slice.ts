import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import { bookmarkUpdated, bookmarksDataLoaded } from '@/lib/bookmark-events.ts';
import { sessionEnded } from '@/lib/session-events.ts';
import { readJson, storageKeys } from '@/lib/storage.ts';

export const skins = ['light', 'bordered', 'dark', 'semi-dark'] as const;
/** A skin (spec §9 default: light). */
export type Skin = (typeof skins)[number];
export const contentWidths = ['boxed', 'full'] as const;
export type ContentWidth = (typeof contentWidths)[number];
export const navbarTypes = ['floating', 'sticky', 'static', 'hidden'] as const;
export type NavbarType = (typeof navbarTypes)[number];
export const footerTypes = ['static', 'sticky', 'hidden'] as const;
export type FooterType = (typeof footerTypes)[number];

/**
 * Layout state. `query`, `bookmarks` and `suggestions` are the spec's (§3, §4); the rest are
 * layout preferences, of which skin, direction and menu-collapsed are kept in local storage.
 */
export interface LayoutState {
  query: string;
  bookmarks: Suggestion[];
  suggestions: Suggestion[];
  skin: Skin;
  isRtl: boolean;
  isMenuCollapsed: boolean;
  contentWidth: ContentWidth;
  navbarType: NavbarType;
  footerType: FooterType;
}

function isSkin(value: unknown): value is Skin {
  return skins.some((skin) => skin === value);
}

/** Defaults of the starter template (spec §9), with the stored preferences applied. */
export function initialLayoutState(): LayoutState {
  const skin = readJson(storageKeys.skin);
  const isRtl = readJson(storageKeys.isRtl);
  const isMenuCollapsed = readJson(storageKeys.menuCollapsed);
  return {
    query: '',
    bookmarks: [],
    suggestions: [],
    skin: isSkin(skin) ? skin : 'light',
    isRtl: isRtl === true,
    isMenuCollapsed: isMenuCollapsed === true,
    contentWidth: 'boxed',
    navbarType: 'floating',
    footerType: 'static',
  };
}

export const layoutSlice = createSlice({
  name: 'layout',
  initialState: initialLayoutState,
  reducers: {
    /** The search query is replaced by whatever value is supplied (spec §4). */
    queryChanged(state, action: PayloadAction<string>) {
      state.query = action.payload;
    },
    skinChanged(state, action: PayloadAction<Skin>) {
      state.skin = action.payload;
    },
    rtlChanged(state, action: PayloadAction<boolean>) {
      state.isRtl = action.payload;
    },
    menuCollapsedChanged(state, action: PayloadAction<boolean>) {
      state.isMenuCollapsed = action.payload;
    },
    contentWidthChanged(state, action: PayloadAction<ContentWidth>) {
      state.contentWidth = action.payload;
    },
    navbarTypeChanged(state, action: PayloadAction<NavbarType>) {
      state.navbarType = action.payload;
    },
    footerTypeChanged(state, action: PayloadAction<FooterType>) {
      state.footerType = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      // The bookmarks data loaded: suggestions and bookmarks are replaced with the server's (spec §4).
      .addCase(bookmarksDataLoaded, (state, action) => {
        state.suggestions = action.payload.suggestions;
        state.bookmarks = action.payload.bookmarks;
      })
      // A bookmark update succeeded for this item: the suggestion with its id has isBookmarked
      // flipped (spec §4); the bookmarks list follows, so the navbar quick links change at once.
      .addCase(bookmarkUpdated, (state, action) => {
        const item = action.payload;
        const suggestion = state.suggestions.find((s) => s.id === item.id);
        if (suggestion) suggestion.isBookmarked = !suggestion.isBookmarked;
        // An item outside the suggestions (a search result) flips from the state it was shown in.
        const isNowBookmarked = suggestion ? suggestion.isBookmarked : !item.isBookmarked;
        const listed = state.bookmarks.some((b) => b.id === item.id);
        if (isNowBookmarked && !listed) state.bookmarks.push({ ...(suggestion ?? item), isBookmarked: true });
        if (!isNowBookmarked && listed) state.bookmarks = state.bookmarks.filter((b) => b.id !== item.id);
      });
    // Per-user data goes with the session; preferences stay.
    builder.addCase(sessionEnded, (state) => {
      state.query = '';
      state.bookmarks = [];
      state.suggestions = [];
    });
  },
});

export const {
  queryChanged,
  skinChanged,
  rtlChanged,
  menuCollapsedChanged,
  contentWidthChanged,
  navbarTypeChanged,
  footerTypeChanged,
} = layoutSlice.actions;
export const layoutReducer = layoutSlice.reducer;

/** Selects the layout state from any root state that holds it. */
export const selectLayout = (state: { layout: LayoutState }): LayoutState => state.layout;

/** How the shell looks, without the search query and the bookmarks (which change far more often). */
export type LayoutPreferences = Omit<LayoutState, 'query' | 'bookmarks' | 'suggestions'>;

/** The layout preferences; compare with `shallowEqual` so that a new query or bookmark re-renders nothing. */
export function selectPreferences({ layout }: { layout: LayoutState }): LayoutPreferences {
  const { skin, isRtl, isMenuCollapsed, contentWidth, navbarType, footerType } = layout;
  return { skin, isRtl, isMenuCollapsed, contentWidth, navbarType, footerType };
}
