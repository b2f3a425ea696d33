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
    Modal: { defaultProps: { transitionProps: { duration: TRANSITIONS.modal } } },
    Drawer: { defaultProps: { transitionProps: { duration: TRANSITIONS.offcanvas } } },
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
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
  },
  dark: {
    '--mantine-color-dimmed': '#a8a8a8',
    '--mantine-color-placeholder': '#8c8c8c',
  },
});
