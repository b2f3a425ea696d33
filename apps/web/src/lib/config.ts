import { Role } from '@cm/contracts/enums.ts';

/** Product names (spec §9). Brand names: not translated. */
export const PRODUCT_NAME = 'Check Meter';
export const PRODUCT_SHORT_NAME = 'CM';

/** Default route after login for both roles (spec §2, §6). */
export const DEFAULT_ROUTE = '/check';
export const LOGIN_ROUTE = '/login';
export const ROOT_ROUTE = '/';
export const NOT_AUTHORIZED_ROUTE = '/not-authorized';

/** Each role's landing page; an unknown or missing role goes to /login (spec §6). */
export function defaultRouteForRole(role: unknown): string {
  if (role === Role.Admin || role === Role.Client) return DEFAULT_ROUTE;
  return LOGIN_ROUTE;
}

/** Animation timings in ms (spec §9). Defined once; the theme and CSS read them from here. */
export const TRANSITIONS = {
  fade: 150,
  collapse: 350,
  modal: 300,
  carousel: 600,
  offcanvas: 300,
} as const;

/** Toasts (spec §9). */
export const TOAST_LIMIT = 20;
export const TOAST_DURATIONS = { blank: 4000, success: 2000, error: 4000, loading: Infinity } as const;

/** Phones get the menu as a drawer below this width (px). */
export const PHONE_MAX_WIDTH = 767;

/** The exact session messages of the spec (§8). */
export const SESSION_MESSAGES = {
  network: 'Network Error! Please login again.',
  expired: 'Session Expired! Please login again.',
} as const;
/** Why a session was lost. */
export type SessionLossReason = keyof typeof SESSION_MESSAGES;
