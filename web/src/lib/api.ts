import type { ApiSuccess } from '@kickstand/api-contract';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { env } from '../config/env';
import { actingChannelHeaders } from './acting-channel';
import { sessionExpired } from './app-events';
import { sessionGate } from './session-gate';
import { tokenStorage } from './token-storage';

/** The gateway's success envelope (the HTTP contract's). */
export type { ApiSuccess };

export interface RequestArgs {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
}

/** A failed call: an HTTP status with the parsed body (`{ success:false, error }`), or no answer at all. */
export type ApiError = { status: number; data: unknown } | { status: 'FETCH_ERROR'; error: string };

/** Endpoints whose 401 means "wrong credentials", not "session expired" (spec §4). */
const credentialEndpoints = new Set(['login', 'register']);

/**
 * Endpoints whose 401 ends the session without waiting for a new sign-in: the profile fetch decides
 * whether a stored token still signs anyone in (spec §4), and logout needs no retry.
 */
const noRetryEndpoints = new Set(['getProfile', 'logout']);

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * fetch against /api with credentials, JSON in and out, and the stored bearer token (spec §7; no
 * default timeout). A 401 on any call but login and register removes the token and raises
 * sessionExpired, once: a burst of 401s finds the token already gone. The call then waits for the
 * user to sign in again (the dialog over the page) and is sent once more with the new token, so a
 * form's save neither fails nor loses what was typed.
 */
export const apiBaseQuery: BaseQueryFn<string | RequestArgs, unknown, ApiError> = async (args, api, extra) => {
  const { url, method = 'GET', body } = typeof args === 'string' ? { url: args } : args;
  // team access: an editor's calls to the channel they work on name it (commands, timers, counters)
  const headers: Record<string, string> = { accept: 'application/json', ...actingChannelHeaders(url) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = tokenStorage.get();
  if (token) headers.authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`${env.apiBaseUrl}${url}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'include',
      signal: api.signal,
    });
  } catch (error) {
    return { error: { status: 'FETCH_ERROR', error: String(error) } };
  }

  const data = await readBody(response);
  if (response.ok) return { data };
  if (response.status === 401 && !credentialEndpoints.has(api.endpoint) && token !== null) {
    if (tokenStorage.get() === token) {
      tokenStorage.remove();
      api.dispatch(sessionExpired());
    }
    // a signed-in session waits for the next sign-in; one signed in again meanwhile goes at once
    const isRetried = sessionGate.isClosed() || tokenStorage.get() !== null;
    if (isRetried && !noRetryEndpoints.has(api.endpoint)) {
      await sessionGate.wait();
      if (!api.signal.aborted) return apiBaseQuery(args, api, extra);
    }
  }
  return { error: { status: response.status, data } };
};

/** The one API slice; each feature adds its endpoints with api.injectEndpoints. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: apiBaseQuery,
  tagTypes: [
    'Profile',
    'KickStatus',
    'BotStatus',
    'Commands',
    'GameSettings',
    'AdminUsers',
    'AdminStats',
    'AuditLog',
    'Subscriptions',
    'CommandUsage',
    'ChatSender',
    'BotAccount',
    'DeadLetters',
  ],
  endpoints: () => ({}),
});

/** Unwraps the envelope's data. */
export const dataOf = <T>(body: ApiSuccess<T>): T => body.data;
