import { Kbd, Loader, Modal, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks.ts';
import { useSearchQuery } from '@/lib/bookmarks-api.ts';
import { queryChanged } from './layout-slice.ts';
import { mergeResults, SEARCH_DEBOUNCE_MS } from './search-results.ts';
import { SuggestionIcon } from './suggestion-icon.tsx';
import { SuggestionText } from './suggestion-text.tsx';
import { suggestionTitle } from '@/components/suggestion-title.ts';
import classes from './search-dialog.module.css';

interface SearchDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** Navbar search (`/` or Ctrl+K): arrows move, Enter opens, Esc closes. */
export function SearchDialog({ opened, onClose }: SearchDialogProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const query = useAppSelector((state) => state.layout.query);
  const bookmarks = useAppSelector((state) => state.layout.bookmarks);
  const suggestions = useAppSelector((state) => state.layout.suggestions);
  const [debounced] = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const {
    data: remote,
    isFetching,
    isError,
  } = useSearchQuery(debounced, { skip: !opened || debounced === '' });
  // Closed (it stays mounted), it lists nothing: the bookmarks arriving cost no work here.
  const items = useMemo(
    () =>
      opened
        ? mergeResults(query, bookmarks, suggestions, debounced === '' ? [] : (remote ?? []), (s) =>
            suggestionTitle(s, t),
          )
        : [],
    [opened, query, bookmarks, suggestions, remote, debounced, t],
  );
  // The active option is remembered by id, so it stays put while results update (first one otherwise).
  const [activeId, setActiveId] = useState<string | null>(null);
  const active = Math.max(
    0,
    items.findIndex((item) => item.id === activeId),
  );
  const setActive = (update: (index: number) => number) => setActiveId(items[update(active)]?.id ?? null);
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;

  function open(item: Suggestion | undefined) {
    if (!item) return;
    onClose();
    dispatch(queryChanged(''));
    void navigate(item.link);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (items.length === 0) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((index) => (index + 1) % items.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => (index - 1 + items.length) % items.length);
    } else if (event.key === 'Home' && event.ctrlKey) {
      setActive(() => 0);
    } else if (event.key === 'End' && event.ctrlKey) {
      setActive(() => items.length - 1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      open(items[active]);
    }
  }

  const isSearching = isFetching || (query.trim() !== '' && query.trim() !== debounced);

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened={opened}
      onClose={onClose}
      title={t('search.title')}
      size="lg"
      yOffset="10vh"
      classNames={{ body: classes.body }}
    >
      <TextInput
        data-autofocus
        value={query}
        onChange={(event) => dispatch(queryChanged(event.currentTarget.value))}
        onKeyDown={handleKeyDown}
        // Keys typed before the field had focus are in the query already: go on after them.
        onFocus={(event) => {
          const end = event.currentTarget.value.length;
          event.currentTarget.setSelectionRange(end, end);
        }}
        placeholder={t('search.placeholder')}
        aria-label={t('search.label')}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={items.length > 0}
        aria-controls={listId}
        aria-activedescendant={items.length > 0 ? optionId(active) : undefined}
        leftSection={<IconSearch size={18} aria-hidden />}
        rightSection={isSearching ? <Loader size="xs" aria-hidden /> : null}
        size="md"
      />
      <Text size="sm" c="dimmed" role="status" className={classes.status}>
        {isError
          ? t('search.failed')
          : items.length === 0
            ? t('search.empty')
            : t('search.count', { count: items.length })}
      </Text>
      <ul id={listId} role="listbox" aria-label={t('search.results')} className={classes.list}>
        {items.map((item, index) => (
          // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events -- the listbox pattern: keys go to the search input, which points at the active option (aria-activedescendant)
          <li
            key={item.id}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={classes.option}
            onMouseEnter={() => setActiveId(item.id)}
            onClick={() => open(item)}
          >
            <span className={classes.icon}>
              <SuggestionIcon name={item.icon} />
            </span>
            <SuggestionText item={item} />
            <span className={classes.kind}>{t(`search.kind.${item.kind}`)}</span>
          </li>
        ))}
      </ul>
      <Text size="xs" c="dimmed" className={classes.hint}>
        <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> {t('search.hint.move')} ·{' '}
        <Kbd size="xs">{t('search.key.enter')}</Kbd> {t('search.hint.open')} ·{' '}
        <Kbd size="xs">{t('search.key.escape')}</Kbd> {t('search.hint.close')}
      </Text>
    </Modal>
  );
}
