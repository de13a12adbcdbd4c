import {
  combineSlices,
  configureStore,
  createListenerMiddleware,
  type ThunkDispatch,
  type UnknownAction,
} from '@reduxjs/toolkit';
import { chatLogSlice } from '../features/chat/chat-log-slice';
import { addSessionListeners } from '../features/session/session-listeners';
import { sessionSlice } from '../features/session/session-slice';
import { toastsSlice } from '../features/toasts/toasts-slice';
import { api } from '../lib/api';

const rootReducer = combineSlices(api, sessionSlice, toastsSlice, chatLogSlice);

export type RootState = ReturnType<typeof rootReducer>;

/** A new store; tests pass the state they start from (as the Redux template does). */
export function makeStore(preloadedState?: Partial<RootState>) {
  const listener = createListenerMiddleware<RootState, ThunkDispatch<RootState, unknown, UnknownAction>>();
  addSessionListeners(listener);
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
