/*
 * index.html paints a signed-in meter view's frame, title and intro before any script has run
 * (`#cm-first-paint`, over the placeholder). It stays until the page it stands for has committed
 * its own, drawn in the same place: then it goes, within that commit's frame.
 */

const STAND_IN_ID = 'cm-first-paint';

/** Removes index.html's first paint, if it is still there. */
export function endFirstPaint(): void {
  document.getElementById(STAND_IN_ID)?.remove();
  document.documentElement.removeAttribute('data-first-paint');
}

/** The only path whose page index.html paints first (its script checks the same). */
export const FIRST_PAINT_PATH = '/check';
