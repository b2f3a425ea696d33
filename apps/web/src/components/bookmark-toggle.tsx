import { ActionIcon } from '@mantine/core';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useUpdateBookmarkMutation } from '@/lib/bookmarks-api.ts';
import { suggestionTitle } from './suggestion-title.ts';

function isSessionLoss(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'isSessionLoss' in error && error.isSessionLoss === true
  );
}

/**
 * A star that bookmarks one suggestion (a page, a location, a meter), in the bookmarks menu and on
 * the meter card; on success the navbar's bookmarks follow (spec §4).
 */
export function BookmarkToggle({
  item,
  isBookmarked,
  size = 'md',
}: {
  item: Suggestion;
  isBookmarked: boolean;
  size?: 'md' | 'lg';
}) {
  const { t } = useTranslation();
  const [update, { isLoading }] = useUpdateBookmarkMutation();

  async function handleToggle() {
    const result = await update({ ...item, isBookmarked });
    if ('error' in result && !isSessionLoss(result.error))
      toast.error(t('bookmarks.updateFailed'), { id: 'bookmark-error' });
  }

  const label = t(isBookmarked ? 'bookmarks.remove' : 'bookmarks.add', { title: suggestionTitle(item, t) });
  return (
    <ActionIcon
      variant="subtle"
      color={isBookmarked ? 'yellow' : 'gray'}
      size={size}
      onClick={() => void handleToggle()}
      loading={isLoading}
      aria-pressed={isBookmarked}
      aria-label={label}
      title={label}
    >
      {isBookmarked ? <IconStarFilled size={18} aria-hidden /> : <IconStar size={18} aria-hidden />}
    </ActionIcon>
  );
}
