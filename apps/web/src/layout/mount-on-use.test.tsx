// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MountOnUse, type FirstUse } from './mount-on-use.tsx';

function Control() {
  return (
    <MountOnUse
      idle={<button type="button">idle</button>}
      active={(firstUse: FirstUse) => <button type="button">{`active after ${firstUse}`}</button>}
    />
  );
}

/** Focuses `element` as a key (visible focus) or a tap (none) would; jsdom alone tells no difference. */
function focus(element: HTMLElement, { isVisible }: { isVisible: boolean }) {
  const matches = Element.prototype.matches;
  vi.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, selector: string) {
    return selector === ':focus-visible'
      ? isVisible && this === document.activeElement
      : matches.call(this, selector);
  });
  element.focus();
  fireEvent.focusIn(element);
}

describe('MountOnUse', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('draws the idle control until someone reaches for it', () => {
    render(<Control />);
    expect(screen.getByRole('button').textContent).toBe('idle');
  });

  it('swaps in the active control when a mouse arrives, before any click', () => {
    render(<Control />);
    fireEvent.pointerEnter(screen.getByRole('button'), { pointerType: 'mouse' });
    expect(screen.getByRole('button').textContent).toBe('active after point');
  });

  it('does not swap on a finger arriving: the tap that follows swaps it in pressed', () => {
    render(<Control />);
    fireEvent.pointerEnter(screen.getByRole('button'), { pointerType: 'touch' });
    focus(screen.getByRole('button'), { isVisible: false });
    expect(screen.getByRole('button').textContent).toBe('idle');
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button').textContent).toBe('active after press');
    expect(document.activeElement).toBe(screen.getByRole('button'));
  });

  it('swaps in on a key’s focus and gives the focus to the active control', () => {
    render(<Control />);
    focus(screen.getByRole('button'), { isVisible: true });
    const active = screen.getByRole('button');
    expect(active.textContent).toBe('active after focus');
    expect(document.activeElement).toBe(active);
  });
});
