import { makeStore } from '../app/store';
import { tokenStorageKey } from '../config/constants';
import { commandsApi } from '../features/commands/commands-api';
import { authApi } from '../features/session/auth-api';
import { selectSessionStatus } from '../features/session/session-slice';
import { fail, installFakeFetch, ok } from '../testing/fake-fetch';
import { waitFor } from '@testing-library/react';
import { aUser } from '../testing/fixtures';

const sessionExpiredText = 'Your session has expired. Please log in again.';

function signedInStore() {
  window.localStorage.setItem(tokenStorageKey, 'good-token');
  return makeStore();
}

describe('the API layer (spec §7)', () => {
  test('when a call is made with a stored token, then it carries the bearer token, JSON and credentials', async () => {
    const server = installFakeFetch({ 'POST /api/commands': ok(undefined, {}, 201) });
    const store = signedInStore();
    await store.dispatch(commandsApi.endpoints.addCommand.initiate({ command: 'hi', response: 'hello' }));
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe('Bearer good-token');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({ command: 'hi', response: 'hello' });
    expect(server.fetchMock.mock.calls[0]?.[1]).toMatchObject({ credentials: 'include', method: 'POST' });
  });

  test('when DELETE /api/commands is sent, then the name travels in the JSON body', async () => {
    const server = installFakeFetch({ 'DELETE /api/commands': ok() });
    const store = signedInStore();
    await store.dispatch(commandsApi.endpoints.removeCommand.initiate({ command: 'hi' }));
    expect(server.callsTo('DELETE /api/commands')[0]?.body).toEqual({ command: 'hi' });
  });
});

describe('401 → session expired (spec §4)', () => {
  test('when any call but login or register answers 401, then the token is removed, the session ends and one warning toast shows', async () => {
    installFakeFetch({
      'GET /api/commands': fail(401, 'Unauthorized'),
      'GET /api/commands/variables': fail(401, 'Unauthorized'),
    });
    const store = signedInStore();
    await Promise.all([
      store.dispatch(commandsApi.endpoints.getCommands.initiate()),
      store.dispatch(commandsApi.endpoints.getCommandVariables.initiate()),
    ]);
    expect(window.localStorage.getItem(tokenStorageKey)).toBeNull();
    expect(selectSessionStatus(store.getState())).toBe('unauthenticated');
    const toasts = store.getState().toasts.items;
    expect(toasts).toEqual([
      expect.objectContaining({ type: 'warning', message: sessionExpiredText, durationMs: 8000 }),
    ]);
  });

  test.each(['login', 'register'] as const)(
    'when %s answers 401, then it is not a session expiry',
    async (endpoint) => {
      installFakeFetch({
        'POST /api/platform/login': fail(401, 'Invalid email or password'),
        'POST /api/platform/register': fail(401, 'nope'),
      });
      const store = signedInStore();
      const body = { email: 'a@example.com', password: 'x', username: 'abc' };
      await store.dispatch(authApi.endpoints[endpoint].initiate(body));
      expect(window.localStorage.getItem(tokenStorageKey)).toBe('good-token');
      expect(store.getState().toasts.items).toEqual([]);
    },
  );

  test('when other errors answer, then the token stays', async () => {
    installFakeFetch({ 'GET /api/commands': fail(500, 'boom') });
    const store = signedInStore();
    await store.dispatch(commandsApi.endpoints.getCommands.initiate());
    expect(window.localStorage.getItem(tokenStorageKey)).toBe('good-token');
    expect(store.getState().toasts.items).toEqual([]);
  });

  test('when the profile call is aborted (the page navigates meanwhile), then the token stays', async () => {
    installFakeFetch({ 'GET /api/platform/profile': ok(aUser()) });
    const store = signedInStore();
    const aborted = store.dispatch(authApi.endpoints.getProfile.initiate());
    aborted.abort();
    await aborted.unwrap().catch(() => undefined);
    expect(window.localStorage.getItem(tokenStorageKey)).toBe('good-token');
  });

  test('when a signed-in save answers 401, then it waits for the next sign-in and is sent again with the new token', async () => {
    const server = installFakeFetch({
      'GET /api/platform/profile': ok(aUser()),
      'POST /api/commands': (request) =>
        request.headers.authorization === 'Bearer new-token' ? ok(request.body, {}, 201) : fail(401, 'Unauthorized'),
      'POST /api/platform/login': ok({ user: aUser(), token: 'new-token' }),
    });
    const store = signedInStore();
    await store.dispatch(authApi.endpoints.getProfile.initiate());
    let settled = false;
    const save = store
      .dispatch(commandsApi.endpoints.addCommand.initiate({ command: 'hi', response: 'hello' }))
      .unwrap()
      .finally(() => {
        settled = true;
      });
    await waitFor(() => expect(selectSessionStatus(store.getState())).toBe('expired'));
    // the page keeps what it showed, and the save has not failed
    expect(authApi.endpoints.getProfile.select()(store.getState()).data).toEqual(aUser());
    await Promise.resolve();
    expect(settled).toBe(false);

    await store.dispatch(authApi.endpoints.login.initiate({ email: 'streamer1@example.com', password: 'x' }));

    await expect(save).resolves.toEqual({ success: true, data: { command: 'hi', response: 'hello' } });
    expect(server.callsTo('POST /api/commands').map((request) => request.headers.authorization)).toEqual([
      'Bearer good-token',
      'Bearer new-token',
    ]);
    expect(selectSessionStatus(store.getState())).toBe('authenticated');
    expect(store.getState().toasts.items.map((toast) => toast.message)).toEqual([sessionExpiredText]);
  });
});
