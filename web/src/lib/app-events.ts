import { createAction } from '@reduxjs/toolkit';

// Actions that several features react to. They live here, not in a feature, so that features never
// import each other: the session feature, the chat log and the toasts all listen to these.

/** A call other than login or register answered 401: the stored token has been removed. */
export const sessionExpired = createAction('session/sessionExpired');

/** The user pressed Exit. */
export const loggedOut = createAction('session/loggedOut');

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export interface ToastRequest {
  type: ToastType;
  message: string;
  /** Auto-dismiss after this long; the default is 5000 ms. */
  durationMs?: number;
}

/** Something wants the user to see a toast. */
export const toastShown = createAction<ToastRequest>('toasts/toastShown');
