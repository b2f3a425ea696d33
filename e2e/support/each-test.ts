import { afterEach, expect } from 'vitest';
import { takeCspViolations } from './browser.ts';

// Whatever a browser test checks, no page it opened may break its own Content-Security-Policy.
afterEach(() => {
  expect(takeCspViolations(), 'a page broke its Content-Security-Policy').toEqual([]);
});
