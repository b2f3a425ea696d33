import { useMediaQuery } from '@mantine/hooks';
import { PHONE_MAX_WIDTH } from './config.ts';

/**
 * Whether the window is a phone's width, read at once: not after a first render as a desk, which
 * on a phone rendered everything twice and showed a desk's layout until an effect ran (the
 * readings table was wider than its box for a moment, long enough to measure).
 */
export function useIsPhone(): boolean {
  return useMediaQuery(`(max-width: ${PHONE_MAX_WIDTH}px)`, undefined, { getInitialValueInEffect: false });
}
