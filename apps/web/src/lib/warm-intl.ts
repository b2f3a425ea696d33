/**
 * The page's first date format in a time zone costs a phone about 100 ms of main thread (at 4×
 * CPU slowdown): the browser loads its time-zone and calendar data then, once for the whole process.
 * A worker formats one date in the reader's languages as the app starts, so that the check page's
 * first format, in the middle of drawing a meter's readings, finds the data loaded (issue 38).
 */
export function warmIntlOffMainThread(): void {
  if (typeof Worker === 'undefined') return;
  try {
    const worker = new Worker(new URL('./warm-intl.worker.ts', import.meta.url), { type: 'module' });
    const stop = () => worker.terminate();
    worker.addEventListener('message', stop);
    worker.addEventListener('error', stop);
    worker.postMessage([...navigator.languages]);
  } catch {
    // No module workers here: the first format loads the data on the main thread, as it always did.
  }
}
