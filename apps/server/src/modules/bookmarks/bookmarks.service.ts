import {
  SEARCH_LIMIT,
  SUGGESTION_LIMIT,
  type BookmarksData,
  type MeterNickname,
  type Suggestion,
} from '@cm/contracts/bookmarks.ts';
import { Role } from '@cm/contracts/enums.ts';
import { itemSuggestionId, itemSuggestionLink, meterSubtitle } from '@cm/contracts/suggestion-ids.ts';
import type { Db } from '../../db/client.ts';
import { HttpError, notFound } from '../../http-error.ts';
import { type AuthContext, scopeOf, type Scope } from '../access/index.ts';
import {
  findVisibleItem,
  listVisibleItems,
  searchVisibleItems,
  type DirectoryItem,
} from '../directory/index.ts';
import { listBookmarkIds, listNicknames, setNickname, toggleBookmark } from './bookmarks.queries.ts';

/** Pages a user can open, by role: the check page for everyone, administration for admins. */
const pages = [
  { key: 'check', title: 'Check meter', link: '/check', icon: 'check', roles: [Role.Admin, Role.Client] },
  { key: 'admin', title: 'Administration', link: '/admin', icon: 'settings', roles: [Role.Admin] },
] as const;

const toSuggestion = (
  item: DirectoryItem,
  bookmarked: ReadonlySet<string>,
  nicknames: Readonly<Record<string, string>> = {},
): Suggestion => {
  const id = itemSuggestionId(item.kind, item.key);
  return {
    id,
    kind: item.kind,
    title: item.title,
    subtitle:
      item.kind === 'meter' ? meterSubtitle(item.label, item.subtitle, nicknames[item.key]) : item.subtitle,
    link: itemSuggestionLink(item.kind, item.key),
    icon: item.kind,
    isBookmarked: bookmarked.has(id),
  };
};

function pagesFor(caller: AuthContext, bookmarked: ReadonlySet<string>): Suggestion[] {
  return pages
    .filter((page) => page.roles.some((role) => role === caller.user.role))
    .map((page) => ({
      id: `page:${page.key}`,
      kind: 'page',
      title: page.title,
      subtitle: '',
      link: page.link,
      icon: page.icon,
      isBookmarked: bookmarked.has(`page:${page.key}`),
    }));
}

/** Parses a suggestion id (`page:check`, `location:<public name>`, `meter:<number>`). */
function parseId(id: string): { kind: 'page' | 'location' | 'meter'; key: string } | undefined {
  const match = /^(page|location|meter):(.+)$/s.exec(id);
  if (!match?.[1] || !match[2]) return undefined;
  const kind = match[1] === 'page' ? 'page' : match[1] === 'location' ? 'location' : 'meter';
  return { kind, key: match[2] };
}

export class BookmarksService {
  constructor(private readonly db: Db) {}

  async data(caller: AuthContext): Promise<BookmarksData> {
    const scope = scopeOf(caller);
    const bookmarked = new Set(await listBookmarkIds(this.db, caller.user.id));
    const nicknames = await listNicknames(this.db, caller.user.id);
    const items = await listVisibleItems(this.db, scope, SUGGESTION_LIMIT);
    const suggestions = [
      ...pagesFor(caller, bookmarked),
      ...items.map((item) => toSuggestion(item, bookmarked, nicknames)),
    ];
    const shown = new Set(suggestions.map((s) => s.id));
    // Starred items beyond the suggestion limit are still bookmarks, as long as the caller may still see them.
    const extra: Suggestion[] = [];
    for (const id of bookmarked) {
      if (shown.has(id)) continue;
      const suggestion = await this.visibleSuggestion(caller, scope, id, bookmarked, nicknames);
      if (suggestion) extra.push(suggestion);
    }
    const byId = new Map([...suggestions, ...extra].map((s) => [s.id, s]));
    const bookmarks = [...bookmarked].flatMap((id) => byId.get(id) ?? []);
    return { suggestions, bookmarks, nicknames };
  }

  /** Names one of the caller's meters for the caller alone ('' removes the name). */
  async nameMeter(caller: AuthContext, meterNumber: string, nickname: string): Promise<MeterNickname> {
    if (!(await findVisibleItem(this.db, scopeOf(caller), 'meter', meterNumber)))
      throw new HttpError(404, 'Meter not found. Check the meter number.', 'meterNumber');
    await setNickname(this.db, caller.user.id, meterNumber, nickname);
    return { meterNumber, nickname };
  }

  async toggle(caller: AuthContext, id: string): Promise<{ id: string; isBookmarked: boolean }> {
    const suggestion = await this.visibleSuggestion(caller, scopeOf(caller), id, new Set());
    if (!suggestion) throw notFound('Nothing to bookmark with this id.');
    return { id, isBookmarked: await toggleBookmark(this.db, caller.user.id, id) };
  }

  /**
   * The caller's meters and locations matching q: first the meters it named so (its own names,
   * issue 34: "My flat" finds its meter in the check page's field too), then by number, name or
   * public name.
   */
  async search(caller: AuthContext, q: string): Promise<Suggestion[]> {
    const scope = scopeOf(caller);
    const bookmarked = new Set(await listBookmarkIds(this.db, caller.user.id));
    const nicknames = await listNicknames(this.db, caller.user.id);
    const needle = q.toLocaleLowerCase();
    const named = Object.keys(nicknames)
      .filter((meterNumber) => nicknames[meterNumber]?.toLocaleLowerCase().includes(needle))
      .slice(0, SEARCH_LIMIT);
    const [byNickname, found] = await Promise.all([
      Promise.all(named.map((meterNumber) => findVisibleItem(this.db, scope, 'meter', meterNumber))),
      searchVisibleItems(this.db, scope, q, SEARCH_LIMIT),
    ]);
    const items = [...byNickname.flatMap((item) => (item ? [item] : [])), ...found];
    const seen = new Set<string>();
    return items
      .filter((item) => {
        const id = itemSuggestionId(item.kind, item.key);
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      })
      .slice(0, SEARCH_LIMIT)
      .map((item) => toSuggestion(item, bookmarked, nicknames));
  }

  private async visibleSuggestion(
    caller: AuthContext,
    scope: Scope,
    id: string,
    bookmarked: ReadonlySet<string>,
    nicknames: Readonly<Record<string, string>> = {},
  ): Promise<Suggestion | undefined> {
    const parsed = parseId(id);
    if (!parsed) return undefined;
    if (parsed.kind === 'page') return pagesFor(caller, bookmarked).find((page) => page.id === id);
    const item = await findVisibleItem(this.db, scope, parsed.kind, parsed.key);
    return item ? toSuggestion(item, bookmarked, nicknames) : undefined;
  }
}
