import { ActionIcon, Anchor, Popover, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import { useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAppSelector } from '@/app/hooks.ts';
import { useSearchQuery, useUpdateBookmarkMutation } from '@/lib/bookmarks-api.ts';
import { mergeResults, SEARCH_DEBOUNCE_MS } from './search-results.ts';
import { SuggestionIcon } from './suggestion-icon.tsx';
import { suggestionTitle } from './suggestion-title.ts';
import classes from './bookmarks-menu.module.css';

/** A star toggle for one suggestion; on success the layout slice flips it (spec §4). */
function BookmarkToggle({ item, isBookmarked }: { item: Suggestion; isBookmarked: boolean }) {
  const { t } = useTranslation();
  const [update, { isLoading }] = useUpdateBookmarkMutation();

  async function handleToggle() {
    const result = await update({ ...item, isBookmarked });
    if ('error' in result && !isSessionLoss(result.error))
      toast.error(t('bookmarks.updateFailed'), { id: 'bookmark-error' });
  }

  return (
    <ActionIcon
      variant="subtle"
      color={isBookmarked ? 'yellow' : 'gray'}
      onClick={() => void handleToggle()}
      loading={isLoading}
      aria-pressed={isBookmarked}
      aria-label={t(isBookmarked ? 'bookmarks.remove' : 'bookmarks.add', { title: suggestionTitle(item, t) })}
    >
      {isBookmarked ? <IconStarFilled size={18} aria-hidden /> : <IconStar size={18} aria-hidden />}
    </ActionIcon>
  );
}

function isSessionLoss(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'isSessionLoss' in error && error.isSessionLoss === true
  );
}

/** The star in the navbar: every suggestion with its star, filterable; starred ones become quick links. */
export function BookmarksMenu() {
  const { t } = useTranslation();
  const bookmarks = useAppSelector((state) => state.layout.bookmarks);
  const suggestions = useAppSelector((state) => state.layout.suggestions);
  const [opened, setOpened] = useState(false);
  const [filter, setFilter] = useState('');
  const [debounced] = useDebouncedValue(filter.trim(), SEARCH_DEBOUNCE_MS);
  const { data: remote } = useSearchQuery(debounced, { skip: !opened || debounced === '' });
  const bookmarkedIds = useMemo(() => new Set(bookmarks.map((b) => b.id)), [bookmarks]);
  const items = useMemo(
    () =>
      mergeResults(filter, bookmarks, suggestions, debounced === '' ? [] : (remote ?? []), (s) =>
        suggestionTitle(s, t),
      ),
    [filter, bookmarks, suggestions, remote, debounced, t],
  );

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={340}
      trapFocus
      withinPortal
      shadow="md"
    >
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          onClick={() => setOpened((o) => !o)}
          aria-label={t('bookmarks.manage')}
          title={t('bookmarks.manage')}
          aria-expanded={opened}
          aria-haspopup="dialog"
        >
          <IconStar size={20} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-label={t('bookmarks.title')}>
        <Text fw={600} mb="xs">
          {t('bookmarks.title')}
        </Text>
        <TextInput
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
          placeholder={t('bookmarks.filterPlaceholder')}
          aria-label={t('bookmarks.filter')}
          data-autofocus
        />
        {items.length === 0 ? (
          <Text size="sm" c="dimmed" mt="sm">
            {t('bookmarks.empty')}
          </Text>
        ) : (
          <ul className={classes.list}>
            {items.map((item) => (
              <li key={item.id} className={classes.row}>
                <Anchor
                  component={Link}
                  to={item.link}
                  className={classes.link}
                  onClick={() => setOpened(false)}
                  underline="never"
                >
                  <SuggestionIcon name={item.icon} />
                  <span className={classes.title}>{suggestionTitle(item, t)}</span>
                </Anchor>
                <BookmarkToggle item={item} isBookmarked={bookmarkedIds.has(item.id)} />
              </li>
            ))}
          </ul>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

/** Starred suggestions as quick links in the navbar. */
export function BookmarkLinks() {
  const { t } = useTranslation();
  const bookmarks = useAppSelector((state) => state.layout.bookmarks);
  if (bookmarks.length === 0) return null;
  return (
    <nav aria-label={t('bookmarks.quickLinks')} className={classes.quick}>
      <ul className={classes.quickList}>
        {bookmarks.slice(0, 8).map((item) => (
          <li key={item.id}>
            <Tooltip label={suggestionTitle(item, t)}>
              <ActionIcon
                component={Link}
                to={item.link}
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={suggestionTitle(item, t)}
              >
                <SuggestionIcon name={item.icon} size={20} />
              </ActionIcon>
            </Tooltip>
          </li>
        ))}
      </ul>
    </nav>
  );
}
