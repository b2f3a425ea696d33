import type { ReactNode } from 'react';
import classes from './tone-badge.module.css';

/** Meanings a badge can carry; each has a light and a dark colour pair with text at 4.5:1 or more. */
export type Tone = 'green' | 'yellow' | 'orange' | 'red' | 'blue' | 'gray' | 'grape' | 'outline';

/** A small status label. Own colours (not Mantine's light variant) so small text keeps AA contrast in both skins. */
export function ToneBadge({
  tone,
  icon,
  wrap = false,
  children,
}: {
  tone: Tone;
  icon?: ReactNode;
  /** A long note may wrap in a narrow table cell. */
  wrap?: boolean;
  children: ReactNode;
}) {
  return (
    <span className={classes.badge} data-tone={tone} data-wrap={wrap ? '' : undefined}>
      {icon}
      {children}
    </span>
  );
}
