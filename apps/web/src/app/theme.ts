import { createTheme, type CSSVariablesResolver } from '@mantine/core';
import { TRANSITIONS } from '@/lib/config.ts';

/**
 * The Mantine theme. Primary shade 8 keeps white text on filled buttons above 4.5:1 (AA);
 * the dimmed text colours are darkened/lightened for the same reason. Transition timings
 * come from the spec constants.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  respectReducedMotion: true,
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  components: {
    // A dialog's <header> is not the page's banner: axe (and screen readers) took each open
    // dialog for a second banner landmark, as its <section> has role="dialog" (issue 34).
    Modal: {
      defaultProps: {
        transitionProps: { duration: TRANSITIONS.modal },
        attributes: { header: { role: 'presentation' } },
      },
    },
    Drawer: {
      defaultProps: {
        transitionProps: { duration: TRANSITIONS.offcanvas },
        attributes: { header: { role: 'presentation' } },
      },
    },
    Menu: { defaultProps: { transitionProps: { duration: TRANSITIONS.fade } } },
    Popover: { defaultProps: { transitionProps: { duration: TRANSITIONS.fade } } },
    Tooltip: { defaultProps: { transitionProps: { duration: TRANSITIONS.fade } } },
    Collapse: { defaultProps: { transitionDuration: TRANSITIONS.collapse } },
  },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {
    '--cm-transition-fade': `${TRANSITIONS.fade}ms`,
    '--cm-transition-collapse': `${TRANSITIONS.collapse}ms`,
    '--cm-transition-modal': `${TRANSITIONS.modal}ms`,
    '--cm-transition-offcanvas': `${TRANSITIONS.offcanvas}ms`,
  },
  light: {
    // Mantine's red-6 errors are 3.3:1 on white; red-9 is 5.6:1.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // gray-6 placeholders ("Choose a file") are 3.3:1 on white; this grey is 4.9:1 (issue 34).
    '--mantine-color-placeholder': '#6b7079',
    // Subtle and light blue buttons under the pointer: blue-9 text on blue-2 is 4.0:1; on blue-1, 4.7:1.
    '--mantine-color-blue-light-hover': 'var(--mantine-color-blue-1)',
  },
  dark: {
    // Mantine's dark red-8 errors are 3.5:1 on the dark body; red-5 is 5.6:1.
    '--mantine-color-error': 'var(--mantine-color-red-5)',
    '--mantine-color-dimmed': '#a8a8a8',
    // 4.8:1 on the dark inputs (dark-6), where #8c8c8c was 4.1:1.
    '--mantine-color-placeholder': '#9a9a9a',
  },
});
