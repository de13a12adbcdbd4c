import { createSlice } from '@reduxjs/toolkit';
import { loggedOut, sessionExpired } from '../../lib/app-events';
import { tokenStorage } from '../../lib/token-storage';
import { authApi } from './auth-api';

/** expired: the token was refused while signed in; the page stays and asks to sign in again. */
export type SessionStatus = 'loading' | 'authenticated' | 'expired' | 'unauthenticated';

export interface SessionState {
  /** loading: a stored token exists and the profile is being fetched. */
  status: SessionStatus;
  /** The user has just logged in (the dashboard then may show the progress splash). */
  isFromLogin: boolean;
}

/** Spec §4: a stored token means "fetch the profile"; none means signed out. */
export const initialSessionState = (): SessionState => ({
  status: tokenStorage.get() ? 'loading' : 'unauthenticated',
  isFromLogin: false,
});

const signedOut: SessionState = { status: 'unauthenticated', isFromLogin: false };

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    dashboardSplashFinished(state) {
      state.isFromLogin = false;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loggedOut, () => signedOut)
      .addCase(sessionExpired, (state) =>
        state.status === 'authenticated' ? { ...state, status: 'expired' } : signedOut,
      )
      .addMatcher(authApi.endpoints.login.matchFulfilled, () => ({ status: 'authenticated', isFromLogin: true }))
      .addMatcher(authApi.endpoints.getProfile.matchFulfilled, (state) => {
        if (state.status === 'loading') state.status = 'authenticated';
      })
      .addMatcher(authApi.endpoints.getProfile.matchRejected, (state, action) => {
        // a deduplicated request (condition) is not a failure
        if (action.meta.condition) return state;
        return signedOut;
      });
  },
  selectors: {
    selectSessionStatus: (state) => state.status,
    selectIsFromLogin: (state) => state.isFromLogin,
  },
});

export const { dashboardSplashFinished } = sessionSlice.actions;
export const { selectSessionStatus, selectIsFromLogin } = sessionSlice.selectors;
