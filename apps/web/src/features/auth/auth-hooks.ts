import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { AuthState } from './auth-slice.ts';

/**
 * What the auth feature knows of the store: its own slice, which the app's store holds under its
 * name, `auth` (combineSlices keys each slice so; selectAuth reads it there too). Typed on that
 * alone, the feature never imports app/.
 */
export interface AuthRootState {
  auth: AuthState;
}

/** `useSelector` typed for the auth slice. */
export const useAuthSelector = useSelector.withTypes<AuthRootState>();
/** `useDispatch` typed for the auth thunks. */
export const useAuthDispatch = useDispatch.withTypes<ThunkDispatch<AuthRootState, unknown, UnknownAction>>();
