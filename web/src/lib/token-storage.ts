import { tokenStorageKey } from '../config/constants';

/** The bearer token lives in local storage under `token` (spec §9); every request reads it from here. */
export const tokenStorage = {
  get(): string | null {
    try {
      return window.localStorage.getItem(tokenStorageKey);
    } catch {
      return null;
    }
  },
  set(token: string): void {
    window.localStorage.setItem(tokenStorageKey, token);
  },
  remove(): void {
    window.localStorage.removeItem(tokenStorageKey);
  },
};
