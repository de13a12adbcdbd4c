import type { ListenerMiddlewareInstance, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { api } from '../../lib/api';
import { loggedOut, sessionExpired } from '../../lib/app-events';
import { tokenStorage } from '../../lib/token-storage';
import { authApi } from './auth-api';
import { revokeToken } from './revoke-token';

/** The part of the store's state the API cache's thunks need. */
type ApiState = { [api.reducerPath]: ReturnType<typeof api.reducer> };

/**
 * The session's side effects on local storage and the API cache. Listener effects start right
 * after the reducers, before React renders, so the token is stored before the dashboard asks for
 * anything with it. Generic in the store's state (the effects read none of it but the API cache), so this module does
 * not import the store that imports it.
 */
export function addSessionListeners<State extends ApiState>(
  listener: ListenerMiddlewareInstance<State, ThunkDispatch<State, unknown, UnknownAction>>,
): void {
  listener.startListening({
    matcher: authApi.endpoints.login.matchFulfilled,
    effect: (action, { dispatch }) => {
      tokenStorage.set(action.payload.token);
      // the login answer carries the profile: no second request
      dispatch(authApi.util.upsertQueryData('getProfile', undefined, action.payload.user));
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
      if (!action.meta.condition) tokenStorage.remove();
    },
  });
  listener.startListening({
    actionCreator: loggedOut,
    effect: (_action, { dispatch }) => {
      const token = tokenStorage.get();
      if (token) revokeToken(token);
      tokenStorage.remove();
      dispatch(api.util.resetApiState());
    },
  });
  listener.startListening({
    actionCreator: sessionExpired,
    effect: (_action, { dispatch }) => {
      dispatch(api.util.resetApiState());
    },
  });
}
