import type { ListenerMiddlewareInstance, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { paths } from '../../config/paths';
import { api } from '../../lib/api';
import { browser } from '../../lib/browser';
import { actingChannel } from '../../lib/acting-channel';
import { loggedOut, sessionExpired } from '../../lib/app-events';
import { isLeavingPage } from '../../lib/page-leaving';
import { sessionGate } from '../../lib/session-gate';
import { tokenStorage } from '../../lib/token-storage';
import { authApi } from './auth-api';
import { revokeToken } from './revoke-token';
import type { SessionState } from './session-slice';

/** The part of the store's state the effects read: the API cache and the session. */
type ApiState = { [api.reducerPath]: ReturnType<typeof api.reducer>; session: SessionState };

/**
 * The session's side effects on local storage and the API cache. Listener effects start right
 * after the reducers, before React renders, so the token is stored before the dashboard asks for
 * anything with it. Generic in the store's state (the effects read only the API cache and the session), so this
 * module does not import the store that imports it.
 */
export function addSessionListeners<State extends ApiState>(
  listener: ListenerMiddlewareInstance<State, ThunkDispatch<State, unknown, UnknownAction>>,
): void {
  listener.startListening({
    matcher: authApi.endpoints.login.matchFulfilled,
    effect: (action, { dispatch, getOriginalState }) => {
      const before = getOriginalState();
      const previousUser = authApi.endpoints.getProfile.select()(before).data;
      if (before.session.status === 'expired' && previousUser && previousUser.id !== action.payload.user.id) {
        // another account signed in over an expired page: that page holds someone else's data
        tokenStorage.set(action.payload.token);
        browser.goTo(paths.dashboard.href());
        return;
      }
      tokenStorage.set(action.payload.token);
      // the login answer carries the profile: no second request
      dispatch(authApi.util.upsertQueryData('getProfile', undefined, action.payload.user));
      // calls that met the expired session go again with the new token
      sessionGate.open();
    },
  });
  listener.startListening({
    // spec §7: the register token is stored, but the UI still asks the user to log in
    matcher: authApi.endpoints.register.matchFulfilled,
    effect: (action) => tokenStorage.set(action.payload.token),
  });
  listener.startListening({
    matcher: authApi.endpoints.getProfile.matchRejected,
    effect: (action) => {
      // spec: a failed profile fetch removes the token. An aborted one did not fail, nor did one the
      // browser cut off as the page navigated or reloaded: removing the token then signed the user
      // out at the next load.
      if (!action.meta.condition && !action.meta.aborted && !isLeavingPage()) tokenStorage.remove();
    },
  });
  listener.startListening({
    actionCreator: sessionExpired,
    effect: (_action, { getState }) => {
      // only a signed-in page waits for a new sign-in; a stale token at start simply signs out
      if (getState().session.status === 'expired') sessionGate.close();
    },
  });
  listener.startListening({
    actionCreator: loggedOut,
    effect: (_action, { dispatch }) => {
      const token = tokenStorage.get();
      if (token) revokeToken(token);
      tokenStorage.remove();
      actingChannel.set(null);
      dispatch(api.util.resetApiState());
    },
  });
}
