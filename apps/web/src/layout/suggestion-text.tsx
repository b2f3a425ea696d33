import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import { useTranslation } from 'react-i18next';
import { suggestionTitle } from '@/components/suggestion-title.ts';
import classes from './suggestion-text.module.css';

/** A suggestion in a list: its title, and below it its subtitle (a meter's name and location) when it has one. */
export function SuggestionText({ item }: { item: Suggestion }) {
  const { t } = useTranslation();
  return (
    <span className={classes.text}>
      <span className={classes.title}>{suggestionTitle(item, t)}</span>
      {item.subtitle === '' ? null : <span className={classes.subtitle}>{item.subtitle}</span>}
    </span>
  );
}
