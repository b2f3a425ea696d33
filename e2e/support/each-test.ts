import { afterEach, expect } from 'vitest';
import { takePageFaults } from './browser.ts';

// Whatever a browser test checks, no page it opened may throw an error its code did not catch or
// break its own Content-Security-Policy (support/browser.ts).
afterEach(() => {
  expect(takePageFaults(), 'what the pages of this test did wrong').toEqual([]);
});
