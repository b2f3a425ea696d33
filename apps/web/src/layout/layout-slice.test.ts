// @vitest-environment jsdom
import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import { shallowEqual } from 'react-redux';
import { describe, expect, it } from 'vitest';
import { bookmarkUpdated, bookmarksDataLoaded } from '@/lib/bookmark-events.ts';
import { sessionEnded } from '@/lib/session-events.ts';
import {
  initialLayoutState,
  layoutReducer,
  queryChanged,
  selectPreferences,
  skinChanged,
  type LayoutState,
} from './layout-slice.ts';

const page = (id: string, isBookmarked = false): Suggestion => ({
  id,
  kind: 'page',
  title: id,
  subtitle: '',
  link: `/${id}`,
  icon: 'check',
  isBookmarked,
});

function start(overrides: Partial<LayoutState> = {}): LayoutState {
  return { ...initialLayoutState(), ...overrides };
}

describe('layout slice', () => {
  it('starts with an empty query, no bookmarks and no suggestions, and the template defaults', () => {
    localStorage.clear();
    expect(layoutReducer(undefined, { type: 'init' })).toEqual({
      query: '',
      bookmarks: [],
      suggestions: [],
      skin: 'light',
      isRtl: false,
      isMenuCollapsed: false,
      contentWidth: 'boxed',
      navbarType: 'floating',
      footerType: 'static',
    });
  });

  it('reads the stored skin, direction and menu state', () => {
    localStorage.setItem('skin', JSON.stringify('semi-dark'));
    localStorage.setItem('isRtl', 'true');
    localStorage.setItem('menuCollapsed', 'true');
    expect(initialLayoutState()).toMatchObject({ skin: 'semi-dark', isRtl: true, isMenuCollapsed: true });
    localStorage.setItem('skin', JSON.stringify('neon'));
    expect(initialLayoutState().skin).toBe('light');
    localStorage.clear();
  });

  it('replaces the query with whatever is supplied', () => {
    let state = layoutReducer(start({ query: 'EM-1' }), queryChanged('Block C'));
    expect(state.query).toBe('Block C');
    state = layoutReducer(state, queryChanged(''));
    expect(state.query).toBe('');
  });

  it('replaces suggestions and bookmarks with the server values when the bookmarks data loads', () => {
    const before = start({ suggestions: [page('old')], bookmarks: [page('old', true)] });
    const data = {
      suggestions: [page('check', true), page('admin')],
      bookmarks: [page('check', true)],
      nicknames: {},
    };
    const state = layoutReducer(before, bookmarksDataLoaded(data));
    expect(state.suggestions).toEqual(data.suggestions);
    expect(state.bookmarks).toEqual(data.bookmarks);
  });

  it('flips isBookmarked of that suggestion after an update succeeds, and the bookmarks list follows', () => {
    const before = start({
      suggestions: [page('check'), page('admin', true)],
      bookmarks: [page('admin', true)],
    });

    const starred = layoutReducer(before, bookmarkUpdated(page('check')));
    expect(starred.suggestions.map((s) => [s.id, s.isBookmarked])).toEqual([
      ['check', true],
      ['admin', true],
    ]);
    expect(starred.bookmarks.map((b) => b.id)).toEqual(['admin', 'check']);

    const unstarred = layoutReducer(starred, bookmarkUpdated(page('admin', true)));
    expect(unstarred.suggestions.find((s) => s.id === 'admin')?.isBookmarked).toBe(false);
    expect(unstarred.bookmarks.map((b) => b.id)).toEqual(['check']);

    const flippedBack = layoutReducer(unstarred, bookmarkUpdated(page('check', true)));
    expect(flippedBack.suggestions.find((s) => s.id === 'check')?.isBookmarked).toBe(false);
  });

  it('stars a search result that is not among the suggestions', () => {
    const meter: Suggestion = {
      id: 'meter:EM-10001',
      kind: 'meter',
      title: 'EM-10001',
      subtitle: 'Apt C-101 · Harbour View / Block C',
      link: '/check?meter=EM-10001',
      icon: 'meter',
      isBookmarked: false,
    };
    const state = layoutReducer(start(), bookmarkUpdated(meter));
    expect(state.bookmarks).toEqual([{ ...meter, isBookmarked: true }]);
    expect(state.suggestions).toEqual([]);
  });

  it('drops per-user data when the session ends, and keeps the preferences', () => {
    const before = layoutReducer(
      start({ query: 'x', suggestions: [page('a')], bookmarks: [page('a', true)] }),
      skinChanged('dark'),
    );
    const state = layoutReducer(before, sessionEnded({ reason: 'logout' }));
    expect(state).toMatchObject({ query: '', suggestions: [], bookmarks: [], skin: 'dark' });
  });

  it('gives the same preferences after a new query or bookmarks, and new ones after a skin change', () => {
    const before = layoutReducer(undefined, { type: 'init' });
    const prefs = selectPreferences({ layout: before });
    expect(prefs).not.toHaveProperty('query');
    const typed = layoutReducer(before, queryChanged('EM-1'));
    const loaded = layoutReducer(
      typed,
      bookmarksDataLoaded({ suggestions: [page('check')], bookmarks: [], nicknames: {} }),
    );
    expect(shallowEqual(selectPreferences({ layout: loaded }), prefs)).toBe(true);
    const dark = layoutReducer(loaded, skinChanged('dark'));
    expect(shallowEqual(selectPreferences({ layout: dark }), prefs)).toBe(false);
  });
});
