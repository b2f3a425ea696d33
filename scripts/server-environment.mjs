// What CM's server process is started with beyond the environment it is given: one home for
// `npm start` and `npm run dev` (start.mjs, dev.mjs), the browser suite and the benchmarks
// (e2e/support/server-process.ts, bench/lib/server-malloc.ts). Plain JavaScript: `npm start` runs
// it before anything is built.

/**
 * glibc's allocator settings for the server (docs/running.md, "Memory"). A request's answer is built
 * in typed columns of hundreds of kilobytes each (a year of 15-minute readings is 35,040 values a
 * column); by default glibc gives each such block fresh pages from the kernel (mmap) and hands freed
 * memory at the top of its heap back (trim), so every request pays page faults again for memory the
 * one before just freed. Blocks under 32 MiB from the heap, and up to 256 MiB of free heap kept
 * (what it bought, and its price: docs/running.md). Read by glibc once, at the process's start;
 * other C libraries ignore them; values the environment sets win.
 */
export const MALLOC_SETTINGS = Object.freeze({
  MALLOC_MMAP_THRESHOLD_: String(32 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(256 * 1024 * 1024),
});

/** `env` with the allocator settings wherever it does not set them itself. */
export function withServerMalloc(env) {
  return { ...MALLOC_SETTINGS, ...env };
}
