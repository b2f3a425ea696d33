import { Tooltip } from '@mantine/core';
import { useLayoutEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import classes from './mount-on-use.module.css';

/** How someone first reached for a control: pointed at it with a mouse, tabbed to it, pressed it. */
export type FirstUse = 'point' | 'focus' | 'press';

/**
 * Draws `idle` — the control as it looks, without what makes its menu, pop-over or tooltip work —
 * until someone reaches for it, then `active(firstUse)` in its place. The navbar's menus and
 * tooltips each measured the page and positioned themselves on every signed-in load, seconds of a
 * phone's main thread in all (issue 38); now only the one used does. A mouse swaps it in as it
 * arrives, before any click; a key (Tab) swaps it in and gives the focus to the new control; a
 * tap or a click without pointing first swaps it in opened (`press`), the control opening itself.
 */
export function MountOnUse({ idle, active }: { idle: ReactNode; active: (firstUse: FirstUse) => ReactNode }) {
  const [firstUse, setFirstUse] = useState<FirstUse | null>(null);
  const slot = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    if (firstUse === 'focus' || firstUse === 'press')
      slot.current?.querySelector<HTMLElement>('button, a[href], [tabindex]')?.focus();
  }, [firstUse]);

  if (firstUse !== null)
    return (
      <span ref={slot} className={classes.slot}>
        {active(firstUse)}
      </span>
    );
  return (
    // Presentation: the events are the control's own, heard here as they bubble.
    <span
      ref={slot}
      role="presentation"
      className={classes.slot}
      onPointerEnter={(event) => {
        // At once, not at the pointer's priority: a click right behind must land on the new control.
        if (event.pointerType === 'mouse') flushSync(() => setFirstUse('point'));
      }}
      onFocus={(event) => {
        // A tap focuses before it clicks: only a key's focus (focus-visible) swaps now.
        if (event.target.matches(':focus-visible')) setFirstUse('focus');
      }}
      onClick={() => setFirstUse('press')}
    >
      {idle}
    </span>
  );
}

/** A tooltip (on hover, as Mantine's) that mounts when its control is first reached for (see MountOnUse). */
export function TooltipOnUse({ label, children }: { label: ReactNode; children: ReactElement }) {
  return <MountOnUse idle={children} active={() => <Tooltip label={label}>{children}</Tooltip>} />;
}
