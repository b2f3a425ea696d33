import { ActionIcon, Anchor, Button, Popover, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconStar } from '@tabler/icons-react';
import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import { useMemo, useState, type ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TFunction } from 'i18next';
import { useAppSelector } from '@/app/hooks.ts';
import { BookmarkToggle } from '@/components/bookmark-toggle.tsx';
import { useSearchQuery } from '@/lib/bookmarks-api.ts';
import { mergeResults, SEARCH_DEBOUNCE_MS } from './search-results.ts';
import { SuggestionIcon } from './suggestion-icon.tsx';
import { SuggestionText } from './suggestion-text.tsx';
import { quickLinkTitle, suggestionTitle } from '@/components/suggestion-title.ts';
import { MountOnUse, TooltipOnUse } from './mount-on-use.tsx';
import classes from './bookmarks-menu.module.css';

/** The star in the navbar: every suggestion with its star, filterable; starred ones become quick links. */
export function BookmarksMenu() {
  return (
    <MountOnUse
      idle={<StarButton opened={false} />}
      active={(firstUse) => <BookmarksPopover isOpenedAtOnce={firstUse === 'press'} />}
    />
  );
}

/** The star's button; as a pop-over's target it takes the pop-over's ref and attributes too. */
function StarButton({ opened, ...target }: { opened: boolean } & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  return (
    <ActionIcon
      {...target}
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={t('bookmarks.manage')}
      title={t('bookmarks.manage')}
      aria-expanded={opened}
      aria-haspopup="dialog"
    >
      <IconStar size={20} aria-hidden />
    </ActionIcon>
  );
}

function BookmarksPopover({ isOpenedAtOnce }: { isOpenedAtOnce: boolean }) {
  const { t } = useTranslation();
  const bookmarks = useAppSelector((state) => state.layout.bookmarks);
  const suggestions = useAppSelector((state) => state.layout.suggestions);
  const [opened, setOpened] = useState(isOpenedAtOnce);
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
        <StarButton opened={opened} onClick={() => setOpened((o) => !o)} />
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
                  <SuggestionText item={item} />
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

/** A bookmark in full: a meter's number with its name and location, a location with its address. */
function fullName(item: Suggestion, t: TFunction): string {
  return item.subtitle === '' ? suggestionTitle(item, t) : `${suggestionTitle(item, t)} · ${item.subtitle}`;
}

/** How many bookmarks the navbar shows with their names; the star's menu lists them all. */
const QUICK_LINKS = 3;

/** Starred suggestions as quick links in the navbar, each with its name. */
export function BookmarkLinks() {
  const { t } = useTranslation();
  const bookmarks = useAppSelector((state) => state.layout.bookmarks);
  if (bookmarks.length === 0) return null;
  return (
    <nav aria-label={t('bookmarks.quickLinks')} className={classes.quick}>
      <ul className={classes.quickList}>
        {bookmarks.slice(0, QUICK_LINKS).map((item) => (
          <li key={item.id}>
            <TooltipOnUse label={fullName(item, t)}>
              <Button
                component={Link}
                to={item.link}
                variant="subtle"
                color="gray"
                size="compact-sm"
                leftSection={<SuggestionIcon name={item.icon} size={16} />}
                aria-label={fullName(item, t)}
              >
                <span className={classes.quickText}>{quickLinkTitle(item, t)}</span>
              </Button>
            </TooltipOnUse>
          </li>
        ))}
      </ul>
    </nav>
  );
}
