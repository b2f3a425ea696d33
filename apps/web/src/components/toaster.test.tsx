// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppToaster } from './toaster.tsx';

describe('toasts', () => {
  beforeAll(() => {
    // jsdom has no matchMedia; react-hot-toast asks it about reduced motion.
    window.matchMedia ??= (query: string) =>
      ({
        matches: false,
        media: query,
        addEventListener() {},
        removeEventListener() {},
      }) as unknown as MediaQueryList;
  });

  afterEach(() => {
    act(() => toast.remove());
    cleanup();
  });

  it('shows at most 20 at once, the newest, with the spec class name', async () => {
    const { container } = render(<AppToaster />);
    await act(async () => {
      for (let i = 0; i < 30; i += 1) toast(`message ${i}`);
    });
    const shown = container.ownerDocument.querySelectorAll('.react-hot-toast');
    const visible = [...shown].filter((el) => el.textContent?.startsWith('message'));
    expect(visible.length).toBeLessThanOrEqual(20);
    expect(visible.some((el) => el.textContent === 'message 29')).toBe(true);
    expect(visible.some((el) => el.textContent === 'message 0')).toBe(false);
  });
});
