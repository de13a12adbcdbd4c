import { createFakeClock } from '@kickstand/platform/testing';
import {
  allProductScopes,
  authorizeQuery,
  pkcePair,
  startSandboxForTest,
  testClient,
  type SandboxHarness,
  type TokenResponse,
} from '../testing/sandbox-harness';

const invalidRequest = { error: 'Invalid request' };
const invalidGrant = {
  error: 'invalid_grant',
  error_description: expect.stringMatching(/^The provided authorization grant/),
};

async function authorizeCode(sandbox: SandboxHarness, challenge: string, extra: Record<string, string> = {}) {
  const answer = await sandbox.request(
    'GET',
    `/oauth/authorize?${authorizeQuery({ sandbox_auto_approve: 'sandbox_streamer', ...extra }, challenge)}`,
  );
  const location = new URL(answer.headers.get('location') ?? '');
  return { answer, location, code: location.searchParams.get('code') ?? '' };
}

function exchange(sandbox: SandboxHarness, fields: Record<string, string>) {
  return sandbox.request('POST', '/oauth/token', {
    form: {
      grant_type: 'authorization_code',
      client_id: testClient.clientId,
      client_secret: testClient.clientSecret,
      redirect_uri: testClient.redirectUri,
      ...fields,
    },
  });
}

function refresh(sandbox: SandboxHarness, refreshToken: string, overrides: Record<string, string> = {}) {
  return sandbox.request('POST', '/oauth/token', {
    form: {
      grant_type: 'refresh_token',
      client_id: testClient.clientId,
      client_secret: testClient.clientSecret,
      refresh_token: refreshToken,
      ...overrides,
    },
  });
}

describe('GET /oauth/authorize', () => {
  let sandbox: SandboxHarness;
  beforeAll(async () => {
    sandbox = await startSandboxForTest();
  });
  afterAll(() => sandbox.close());

  test('when every parameter is right, then a page lets a person pick a user and see the scopes', async () => {
    const answer = await sandbox.request('GET', `/oauth/authorize?${authorizeQuery()}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/text\/html/);
    expect(answer.text).toContain('sandbox_streamer');
    expect(answer.text).toContain('chat:write');
    expect(answer.text).toMatch(/name="request_id" value="[A-Za-z0-9_-]{20,}"/);
    expect(answer.headers.get('content-security-policy')).toContain("form-action 'self' http://localhost:3000");
  });

  test.each([
    ['client_id is unknown', { client_id: 'someone-else' }],
    ['client_id is missing', { client_id: undefined }],
    ['redirect_uri differs by a trailing slash', { redirect_uri: `${testClient.redirectUri}/` }],
    ['redirect_uri uses 127.0.0.1', { redirect_uri: testClient.redirectUri.replace('localhost', '127.0.0.1') }],
    ['response_type is token', { response_type: 'token' }],
    ['scope is missing', { scope: undefined }],
    ['scope has an unknown scope', { scope: 'user:read chat:admin' }],
    ['state is missing', { state: undefined }],
    ['code_challenge is missing', { code_challenge: undefined }],
    ['code_challenge is not 43 base64url characters', { code_challenge: 'short' }],
    ['code_challenge_method is plain', { code_challenge_method: 'plain' }],
    ['code_challenge_method is missing', { code_challenge_method: undefined }],
  ])('when %s, then 400 {"error":"Invalid request"}', async (_name, overrides) => {
    const answer = await sandbox.request('GET', `/oauth/authorize?${authorizeQuery(overrides)}`);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidRequest);
  });

  test('when a parameter is given twice, then 400 {"error":"Invalid request"}', async () => {
    const answer = await sandbox.request('GET', `/oauth/authorize?${authorizeQuery()}&state=again`);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidRequest);
  });

  test('when a person approves on the page, then the browser goes back with a code and the state', async () => {
    const page = await sandbox.request('GET', `/oauth/authorize?${authorizeQuery({ state: 'from-page' })}`);
    const requestId = /name="request_id" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const answer = await sandbox.request('POST', '/oauth/authorize/decision', {
      form: {
        request_id: requestId,
        decision: 'approve',
        existing_username: 'viewer_bob',
        new_username: '',
        scope: 'user:read',
      },
    });
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(testClient.redirectUri);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(location.searchParams.get('state')).toBe('from-page');
  });

  test('when a person denies, then the browser goes back with error=access_denied and the state', async () => {
    const page = await sandbox.request('GET', `/oauth/authorize?${authorizeQuery({ state: 'denied-state' })}`);
    const requestId = /name="request_id" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const answer = await sandbox.request('POST', '/oauth/authorize/decision', {
      form: { request_id: requestId, decision: 'deny' },
    });
    const location = new URL(answer.headers.get('location') ?? '');
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'access_denied', state: 'denied-state' });
  });

  test('when the same decision is posted twice, then the second one is refused', async () => {
    const page = await sandbox.request('GET', `/oauth/authorize?${authorizeQuery()}`);
    const requestId = /name="request_id" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const form = { request_id: requestId, decision: 'approve', existing_username: 'viewer_bob', scope: 'user:read' };
    expect((await sandbox.request('POST', '/oauth/authorize/decision', { form })).status).toBe(303);
    const second = await sandbox.request('POST', '/oauth/authorize/decision', { form });
    expect(second.status).toBe(400);
    expect(second.text).toContain('unknown or has expired');
  });

  test('when the decision carries a made-up request id, then no code is issued', async () => {
    const answer = await sandbox.request('POST', '/oauth/authorize/decision', {
      form: { request_id: 'forged', decision: 'approve', existing_username: 'sandbox_streamer', scope: 'chat:write' },
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
  });

  test('when a new username is typed, then that Kick user is created and linked', async () => {
    const page = await sandbox.request('GET', `/oauth/authorize?${authorizeQuery()}`);
    const requestId = /name="request_id" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    await sandbox.request('POST', '/oauth/authorize/decision', {
      form: {
        request_id: requestId,
        decision: 'approve',
        existing_username: 'viewer_bob',
        new_username: 'brand_new_streamer',
        scope: 'user:read',
      },
    });
    const user = await sandbox.control<{ username: string; userId: number }>('GET', '/users/brand_new_streamer');
    expect(user.userId).toEqual(expect.any(Number));
  });

  test('when a username holds markup, then the page shows it as text', async () => {
    const page = await sandbox.request(
      'GET',
      `/oauth/authorize?${authorizeQuery({ state: '"><script>alert(1)</script>' })}`,
    );
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>alert(1)</script>');
  });

  test('when sandbox_auto_deny is set, then it redirects with access_denied', async () => {
    const answer = await sandbox.request('GET', `/oauth/authorize?${authorizeQuery({ sandbox_auto_deny: '1' })}`);
    expect(answer.status).toBe(302);
    expect(new URL(answer.headers.get('location') ?? '').searchParams.get('error')).toBe('access_denied');
  });
});

describe('POST /oauth/token', () => {
  let sandbox: SandboxHarness;
  beforeAll(async () => {
    sandbox = await startSandboxForTest();
  });
  afterAll(() => sandbox.close());

  test('when the PKCE flow completes, then the §2.4 token response comes back with the granted scopes', async () => {
    const { verifier, challenge } = pkcePair();
    const { code, location } = await authorizeCode(sandbox, challenge);
    expect(location.searchParams.get('state')).toBe('state-123');
    const answer = await exchange(sandbox, { code, code_verifier: verifier });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      refresh_token: expect.any(String),
      expires_in: 7200,
      scope: allProductScopes.join(' '),
      refresh_expires_in: 2592000,
    });
  });

  test('when the user grants fewer scopes, then scope lists only those', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeCode(sandbox, challenge, { sandbox_scope: 'user:read chat:write' });
    const answer = await exchange(sandbox, { code, code_verifier: verifier });
    expect((answer.json as TokenResponse).scope).toBe('user:read chat:write');
  });

  test('when the code verifier is wrong, then invalid_grant', async () => {
    const { challenge } = pkcePair();
    const { code } = await authorizeCode(sandbox, challenge);
    const answer = await exchange(sandbox, { code, code_verifier: pkcePair().verifier });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidGrant);
    expect((answer.json as { error_description: string }).error_description).toContain('PKCE');
  });

  test('when a code is used twice, then the second exchange is invalid_grant and the first tokens are revoked', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeCode(sandbox, challenge);
    const first = (await exchange(sandbox, { code, code_verifier: verifier })).json as TokenResponse;
    const second = await exchange(sandbox, { code, code_verifier: verifier });
    expect(second.status).toBe(400);
    expect(second.json).toEqual(invalidGrant);
    expect((await sandbox.request('GET', '/public/v1/users', { token: first.access_token })).status).toBe(401);
  });

  test('when the redirect_uri differs from the authorize request, then invalid_grant', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeCode(sandbox, challenge);
    const answer = await exchange(sandbox, {
      code,
      code_verifier: verifier,
      redirect_uri: 'http://localhost:3000/other',
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidGrant);
  });

  test('when the client secret is wrong, then 401 invalid_client', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeCode(sandbox, challenge);
    const answer = await exchange(sandbox, { code, code_verifier: verifier, client_secret: 'wrong' });
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual({
      error: 'invalid_client',
      error_description: expect.stringMatching(/^Client authentication failed/),
    });
  });

  test('when the code is unknown, then invalid_grant', async () => {
    const answer = await exchange(sandbox, { code: 'nope', code_verifier: pkcePair().verifier });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidGrant);
  });

  test.each([
    ['the grant type is unknown', { grant_type: 'password' }],
    ['the code verifier is missing', { code: 'x' }],
    ['the client id is missing', { client_id: '', code: 'x', code_verifier: 'y' }],
  ])('when %s, then 400 {"error":"Invalid request"}', async (_name, fields) => {
    const answer = await exchange(sandbox, fields);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidRequest);
  });

  test('when the body is JSON instead of a form, then 400 {"error":"Invalid request"}', async () => {
    const answer = await sandbox.request('POST', '/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: testClient.clientId,
        client_secret: testClient.clientSecret,
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidRequest);
  });

  test('when client credentials are exchanged, then an app token without refresh token or scope', async () => {
    const answer = await sandbox.request('POST', '/oauth/token', {
      form: {
        grant_type: 'client_credentials',
        client_id: testClient.clientId,
        client_secret: testClient.clientSecret,
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 5184000 });
  });

  test('when the client credentials are wrong, then 401 invalid_client', async () => {
    const answer = await sandbox.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: testClient.clientId, client_secret: 'nope' },
    });
    expect(answer.status).toBe(401);
    expect((answer.json as { error: string }).error).toBe('invalid_client');
  });

  test('when a token call is made, then the control API records it without secrets', async () => {
    const calls = await sandbox.control<{ endpoint: string; body: Record<string, string> }[]>(
      'GET',
      '/calls?endpoint=oauth.token',
    );
    expect(calls.length).toBeGreaterThan(0);
    expect(JSON.stringify(calls)).not.toContain(testClient.clientSecret);
    expect(calls.some((call) => call.body.client_secret === '[redacted]')).toBe(true);
  });
});

describe('refresh tokens', () => {
  const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
  let sandbox: SandboxHarness;
  beforeAll(async () => {
    sandbox = await startSandboxForTest({ clock, options: { tokens: { refreshGraceSeconds: 60 } } });
  });
  afterAll(() => sandbox.close());

  test('when refreshed, then a new access and refresh token come back with the same scopes', async () => {
    const linked = await sandbox.linkUser('sandbox_streamer', ['user:read', 'chat:write']);
    const answer = await refresh(sandbox, linked.refresh_token);
    expect(answer.status).toBe(200);
    const rotated = answer.json as TokenResponse;
    expect(rotated.refresh_token).not.toBe(linked.refresh_token);
    expect(rotated.access_token).not.toBe(linked.access_token);
    expect(rotated.scope).toBe('user:read chat:write');
    expect((await sandbox.request('GET', '/public/v1/users', { token: rotated.access_token })).status).toBe(200);
  });

  test('when the old refresh token is used again within the grace period, then it still works; after it, invalid_grant', async () => {
    const linked = await sandbox.linkUser('sandbox_streamer');
    expect((await refresh(sandbox, linked.refresh_token)).status).toBe(200);
    clock.advance(30_000);
    expect((await refresh(sandbox, linked.refresh_token)).status).toBe(200);
    clock.advance(31_000);
    const late = await refresh(sandbox, linked.refresh_token);
    expect(late.status).toBe(400);
    expect(late.json).toEqual(invalidGrant);
  });

  test('when the refresh token was invalidated through the control API, then invalid_grant', async () => {
    const linked = await sandbox.linkUser('viewer_carol');
    const { count } = await sandbox.control<{ count: number }>('POST', '/tokens/invalidate', {
      token: linked.refresh_token,
    });
    expect(count).toBe(1);
    expect((await refresh(sandbox, linked.refresh_token)).json).toEqual(invalidGrant);
  });

  test('when the refresh token is unknown, then invalid_grant', async () => {
    const answer = await refresh(sandbox, 'not-a-token');
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidGrant);
  });

  test('when an access token is expired through the control API, then the REST API answers 401 and refresh recovers', async () => {
    const linked = await sandbox.linkUser('viewer_alice', ['user:read']);
    await sandbox.control('POST', '/tokens/expire', { token: linked.access_token });
    const expired = await sandbox.request('GET', '/public/v1/users', { token: linked.access_token });
    expect(expired.status).toBe(401);
    expect(expired.json).toEqual({ data: {}, message: 'Unauthorized' });
    const renewed = (await refresh(sandbox, linked.refresh_token)).json as TokenResponse;
    expect((await sandbox.request('GET', '/public/v1/users', { token: renewed.access_token })).status).toBe(200);
  });

  test('when the clock passes expires_in, then the access token stops working', async () => {
    const linked = await sandbox.linkUser('viewer_bob', ['user:read']);
    clock.advance(7200 * 1000);
    expect((await sandbox.request('GET', '/public/v1/users', { token: linked.access_token })).status).toBe(401);
  });

  test("when all of a user's access tokens are expired by user id, then the count says how many", async () => {
    const linked = await sandbox.linkUser('other_streamer', ['user:read']);
    const { userId } = await sandbox.control<{ userId: number }>('GET', '/users/other_streamer');
    const { count } = await sandbox.control<{ count: number }>('POST', '/tokens/expire', { userId, kind: 'access' });
    expect(count).toBeGreaterThanOrEqual(1);
    expect((await sandbox.request('GET', '/public/v1/users', { token: linked.access_token })).status).toBe(401);
  });
});

describe('POST /oauth/revoke and introspection', () => {
  let sandbox: SandboxHarness;
  beforeAll(async () => {
    sandbox = await startSandboxForTest();
  });
  afterAll(() => sandbox.close());

  test('when an access token is revoked, then 200 "OK" and it no longer works', async () => {
    const linked = await sandbox.linkUser('sandbox_streamer');
    const answer = await sandbox.request(
      'POST',
      `/oauth/revoke?token=${linked.access_token}&token_hint_type=access_token`,
      {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('OK');
    expect((await sandbox.request('GET', '/public/v1/users', { token: linked.access_token })).status).toBe(401);
  });

  test('when a refresh token is revoked with the RFC hint name, then refreshing and its access token fail', async () => {
    const linked = await sandbox.linkUser('sandbox_streamer');
    const answer = await sandbox.request(
      'POST',
      `/oauth/revoke?token=${linked.refresh_token}&token_type_hint=refresh_token`,
    );
    expect(answer.text).toBe('OK');
    expect((await refresh(sandbox, linked.refresh_token)).json).toEqual(invalidGrant);
    expect((await sandbox.request('GET', '/public/v1/users', { token: linked.access_token })).status).toBe(401);
  });

  test('when the token parameter is missing or the hint is unknown, then 400 {"error":"Invalid request"}', async () => {
    expect((await sandbox.request('POST', '/oauth/revoke')).json).toEqual(invalidRequest);
    const badHint = await sandbox.request('POST', '/oauth/revoke?token=abc&token_hint_type=id_token');
    expect(badHint.status).toBe(400);
    expect(badHint.json).toEqual(invalidRequest);
  });

  test('when an unknown token is revoked, then still 200 OK', async () => {
    expect((await sandbox.request('POST', '/oauth/revoke?token=unknown')).text).toBe('OK');
  });

  test('when a user token is introspected, then §2.7 with token_type user', async () => {
    const linked = await sandbox.linkUser('sandbox_streamer', ['user:read', 'channel:read']);
    const answer = await sandbox.request('POST', '/oauth/token/introspect', { token: linked.access_token });
    expect(answer.status).toBe(200);
    const exp = (answer.json as { data: { exp: number } }).data.exp;
    expect(answer.json).toEqual({
      data: { active: true, client_id: testClient.clientId, token_type: 'user', scope: 'user:read channel:read', exp },
      message: 'OK',
    });
    expect(exp).toBeGreaterThan(Date.now() / 1000 + 7000);
  });

  test('when an app token is introspected on the deprecated path, then token_type app and an empty scope', async () => {
    const answer = await sandbox.request('POST', '/public/v1/token/introspect', { token: await sandbox.appToken() });
    expect(answer.json).toMatchObject({ data: { active: true, token_type: 'app', scope: '' }, message: 'OK' });
  });

  test('when an expired token is introspected, then active false; without a token, 401', async () => {
    const linked = await sandbox.linkUser('viewer_alice', ['user:read']);
    await sandbox.control('POST', '/tokens/expire', { token: linked.access_token });
    const inactive = await sandbox.request('POST', '/oauth/token/introspect', { token: linked.access_token });
    expect(inactive.json).toEqual({ data: { active: false }, message: 'OK' });
    const missing = await sandbox.request('POST', '/oauth/token/introspect');
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual({ data: {}, message: 'Unauthorized' });
  });
});
