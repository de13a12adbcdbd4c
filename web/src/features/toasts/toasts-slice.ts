import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { sessionExpiredMessage, toastDurations } from '../../config/constants';
import { sessionExpired, toastShown, type ToastType } from '../../lib/app-events';

export interface Toast {
  id: number;
  type: ToastType;
  message: string;
  durationMs: number;
  /** The 300 ms closing animation is running. */
  isClosing: boolean;
}

export interface ToastsState {
  items: Toast[];
  nextId: number;
}

const initialState: ToastsState = { items: [], nextId: 1 };

/** More than this many stacked toasts would cover the page: the oldest starts closing. */
export const maxVisibleToasts = 3;

/**
 * Adds a toast. The same message already showing is not repeated (a burst of failures says it
 * once), and beyond three the oldest closes.
 */
function push(state: ToastsState, type: ToastType, message: string, durationMs: number) {
  const open = state.items.filter((item) => !item.isClosing);
  if (open.some((item) => item.type === type && item.message === message)) return;
  state.items.push({ id: state.nextId, type, message, durationMs, isClosing: false });
  state.nextId += 1;
  const excess = open.length + 1 - maxVisibleToasts;
  for (const item of open.slice(0, Math.max(0, excess))) item.isClosing = true;
}

export const toastsSlice = createSlice({
  name: 'toasts',
  initialState,
  reducers: {
    /** Its time is up or the close button was pressed: the closing animation starts. */
    toastClosed(state, action: PayloadAction<number>) {
      const toast = state.items.find((item) => item.id === action.payload);
      if (toast) toast.isClosing = true;
    },
    /** The closing animation has finished. */
    toastRemoved(state, action: PayloadAction<number>) {
      state.items = state.items.filter((item) => item.id !== action.payload);
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(toastShown, (state, { payload }) =>
        push(state, payload.type, payload.message, payload.durationMs ?? toastDurations.defaultMs),
      )
      .addCase(sessionExpired, (state) =>
        push(state, 'warning', sessionExpiredMessage, toastDurations.sessionExpiredMs),
      );
  },
  selectors: {
    selectToasts: (state) => state.items,
  },
});

export const { toastClosed, toastRemoved } = toastsSlice.actions;
export const { selectToasts } = toastsSlice.selectors;
