import { createAction } from '@reduxjs/toolkit';
import type { SessionLossReason } from './config.ts';

/**
 * The session ended (logout, or lost after a network error or a 401). Every slice that holds
 * per-user data listens to it, so no feature has to import another.
 */
export const sessionEnded = createAction<{ reason: SessionLossReason | 'logout'; returnTo?: string | null }>(
  'session/ended',
);
