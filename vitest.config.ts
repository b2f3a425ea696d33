import { defineConfig } from 'vitest/config';

// One test command for the whole repo, on a machine with Node alone. The server suite runs on the
// embedded PostgreSQL from npm (or the server CM_TEST_POSTGRES_URL names), each file in a database of
// its own; the browser suite starts CM as `npm start` does and drives a Chromium it finds (system or
// npm, e2e/support/browser.ts). Neither skips itself: a missing database or browser fails the run.
export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    // Vitest's default is one worker less than the cores: one worker on a 2-core machine, which made
    // the run serial. Most files wait on PostgreSQL or a browser, so three share two cores well.
    maxWorkers: 3,
    projects: [
      {
        test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'], testTimeout: 30_000 },
      },
      {
        // The repository's own checks (lint boundaries): ESLint on planted files, no database.
        test: { name: 'tooling', include: ['scripts/**/*.test.ts'], testTimeout: 120_000 },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          // Sized for a slow, busy machine: a test's own work is seconds at most on a quiet one.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          // A DOM costs about two seconds a file: only the files that say `@vitest-environment jsdom`
          // in their first line get one.
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          setupFiles: ['e2e/support/each-test.ts'],
          // Sized for a 2-core machine loaded far past its cores (support/browser.ts: 60 s a wait).
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // What a page shows after it loads may take more than a second on a busy machine.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
