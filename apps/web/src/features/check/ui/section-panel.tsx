import { Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from '../check.module.css';

interface SectionPanelProps {
  /** The id of the heading that names the section… */
  labelledBy?: string;
  /** …or its name, when it shows no heading. */
  label?: string;
  /** Left out of the printed page. */
  noPrint?: boolean;
  className?: string;
  children: ReactNode;
}

/** One of the check page's bordered sections, named for screen readers. */
export function SectionPanel({ labelledBy, label, noPrint = false, className, children }: SectionPanelProps) {
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-labelledby={labelledBy}
      aria-label={label}
      className={[classes.panel, noPrint ? classes.noPrint : '', className ?? ''].join(' ').trim()}
    >
      {children}
    </Paper>
  );
}
