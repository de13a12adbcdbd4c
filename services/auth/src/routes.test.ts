import { createTokenSigner, generateJwtKeyPair } from '@kickstand/platform/auth';
import { UserChangeKind, UserRole } from '@kickstand/proto';
import { eventually } from '@kickstand/platform/testing';
import {
  captureLog,
  newAccount,
  startAuthForTest,
  unique,
  validPassword,
  type ApiResponse,
  type TestAuth,
} from './testing/test-utils';
import { createPasswordHasher } from './passwords';

const expectError = (response: ApiResponse, status: number, error: string) => {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: expect.objectContaining({ success: false, error }),
  });
};

describe('auth platform doors', () => {
  let auth: TestAuth;
  beforeAll(async () => {
    auth = await startAuthForTest();
  });
  afterAll(() => auth.close());

  describe('POST /api/platform/register', () => {
    test('when the account is valid, then 201 with the user of spec §3 and a token that works on /profile', async () => {
      const account = newAccount();
      const response = await auth.request('POST', '/api/platform/register', { body: account });

      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        success: true,
        message: 'Registration successful',
        data: {
          token: expect.any(String),
          user: {
            id: expect.any(String),
            username: account.username,
            email: account.email,
            role: 'USER',
            isActive: true,
            lastLogin: null,
            createdAt: auth.clock.now().toISOString(),
            botEnabled: true,
            kickAccount: null,
            _count: { commands: 0 },
          },
        },
      });
      const profile = await auth.request('GET', '/api/platform/profile', { token: response.body.data.token });
      expect(profile.status).toBe(200);
      expect(profile.body.data).toEqual(response.body.data.user);
    });

    test('when a user registers, then user.changed CREATED is published with the user id as key', async () => {
      const { user } = await auth.register();
      const published = auth.recorded.publishedWithKeys('user.changed').filter(({ key }) => key === user.id);
      expect(published).toHaveLength(1);
      expect(published[0]?.message).toMatchObject({
        userId: user.id,
        kind: UserChangeKind.CREATED,
        username: user.username,
        role: UserRole.USER,
        isActive: true,
        eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect((await auth.repo.users.findById(user.id))?.outbox).toEqual([]);
    });

    test.each([
      ['Ab1!', 'Password must be at least 8 characters long'],
      ['abcdefg1!', 'Password must contain at least one uppercase letter'],
      ['ABCDEFG1!', 'Password must contain at least one lowercase letter'],
      ['Abcdefgh!', 'Password must contain at least one number'],
      ['Abcdefgh1', 'Password must contain at least one special character'],
      // breaks every rule: the first one (length) is the answer
      ['', 'Password must be at least 8 characters long'],
      // no uppercase, no digit, no special: the uppercase rule comes first
      ['abcdefghij', 'Password must contain at least one uppercase letter'],
      // beside the spec's rules: a common password, and a cap on length
      ['Password1!', 'Password is too common: choose one that is harder to guess'],
      ['P@ssw0rd', 'Password is too common: choose one that is harder to guess'],
      [`Aa1!${'x'.repeat(125)}`, 'Password must be at most 128 characters long'],
    ])('when the password is %j, then 400 "%s"', async (password, error) => {
      const response = await auth.request('POST', '/api/platform/register', { body: newAccount({ password }) });
      expectError(response, 400, error);
    });

    test.each([
      ['not-an-email', 'Please enter a valid email address'],
      ['a@b', 'Please enter a valid email address'],
      ['two@@example.com', 'Please enter a valid email address'],
    ])('when the email is %j, then 400 "%s"', async (email, error) => {
      expectError(await auth.request('POST', '/api/platform/register', { body: newAccount({ email }) }), 400, error);
    });

    test.each([
      ['ab', 'Username must be 3-25 characters long'],
      ['a'.repeat(26), 'Username must be 3-25 characters long'],
      ['with space', 'Username can only contain letters, numbers and underscores'],
      ['dash-ed', 'Username can only contain letters, numbers and underscores'],
      ['ünïcode', 'Username can only contain letters, numbers and underscores'],
    ])('when the username is %j, then 400 "%s"', async (username, error) => {
      expectError(await auth.request('POST', '/api/platform/register', { body: newAccount({ username }) }), 400, error);
    });

    test('when the username has exactly 3 or 25 allowed characters, then it is accepted', async () => {
      await auth.register({ username: 'a_1' });
      await auth.register({ username: `Z_${unique()}`.padEnd(25, '0').slice(0, 25) });
    });

    test.each([
      ['email', 'Email is required'],
      ['username', 'Username is required'],
      ['password', 'Password is required'],
    ])('when %s is missing, then 400 "%s"', async (field, error) => {
      const body: Record<string, string> = { ...newAccount() };
      delete body[field];
      expectError(await auth.request('POST', '/api/platform/register', { body }), 400, error);
    });

    test('when the email is registered already in another letter case, then 409 "Email is already registered"', async () => {
      const first = await auth.register();
      const response = await auth.request('POST', '/api/platform/register', {
        body: newAccount({ email: first.email.toUpperCase() }),
      });
      expectError(response, 409, 'Email is already registered');
    });

    test('when the username is taken in another letter case, then 409 "Username is already taken"', async () => {
      const first = await auth.register();
      const response = await auth.request('POST', '/api/platform/register', {
        body: newAccount({ username: first.username.toUpperCase() }),
      });
      expectError(response, 409, 'Username is already taken');
    });

    test('when two registrations race for one email, then one is created and the other gets 409', async () => {
      const email = `race_${unique()}@example.com`;
      const responses = await Promise.all(
        [0, 1].map(() => auth.request('POST', '/api/platform/register', { body: newAccount({ email }) })),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(responses.find((r) => r.status === 409)?.body.error).toBe('Email is already registered');
    });

    test('when the stored password is read, then it is an argon2id hash with OWASP parameters', async () => {
      const { user } = await auth.register();
      const stored = await auth.repo.users.findById(user.id);
      expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    });
  });

  describe('POST /api/platform/login', () => {
    test('when the email and password match, then the user (with lastLogin set) and a working token', async () => {
      const account = await auth.register();
      auth.clock.advance(5000);

      const response = await auth.request('POST', '/api/platform/login', {
        body: { email: account.email, password: account.password },
      });

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        message: 'Login successful',
        data: { token: expect.any(String), user: { ...account.user, lastLogin: auth.clock.now().toISOString() } },
      });
      const profile = await auth.request('GET', '/api/platform/profile', { token: response.body.data.token });
      expect(profile.body.data.lastLogin).toBe(auth.clock.now().toISOString());
    });

    test('when the email is given in another letter case, then it still signs in', async () => {
      const account = await auth.register();
      const response = await auth.request('POST', '/api/platform/login', {
        body: { email: account.email.toUpperCase(), password: account.password },
      });
      expect(response.status).toBe(200);
    });

    test('when the password is wrong or the email unknown, then the same 401 "Invalid email or password"', async () => {
      const account = await auth.register();
      const wrongPassword = await auth.request('POST', '/api/platform/login', {
        body: { email: account.email, password: 'Wrong!Passw0rd' },
      });
      const unknownEmail = await auth.request('POST', '/api/platform/login', {
        body: { email: `nobody_${unique()}@example.com`, password: account.password },
      });
      expect(wrongPassword.status).toBe(401);
      expect(unknownEmail.status).toBe(401);
      expect(wrongPassword.body).toEqual({ success: false, error: 'Invalid email or password' });
      expect(unknownEmail.body).toEqual(wrongPassword.body);
    });

    test('when the email is unknown, then a hash is verified all the same (the answer takes as long as for a wrong password)', async () => {
      // what the hasher was asked, not how long the answers took: timings on a shared machine are noise
      const real = createPasswordHasher();
      const asked: string[] = [];
      const recorded = await startAuthForTest({
        passwords: {
          hash: real.hash,
          verify: async (hash, password) => {
            asked.push('verify');
            return real.verify(hash, password);
          },
          verifyNothing: async (password) => {
            asked.push('verifyNothing');
            return real.verifyNothing(password);
          },
        },
      });
      try {
        const account = await recorded.register();
        asked.length = 0;
        const login = (email: string) =>
          recorded.request('POST', '/api/platform/login', { body: { email, password: 'Wrong!Passw0rd' } });

        expect((await login(account.email)).status).toBe(401);
        expect((await login(`nobody_${unique()}@example.com`)).status).toBe(401);

        expect(asked).toEqual(['verify', 'verifyNothing']);
      } finally {
        await recorded.close();
      }
    });

    test('when the account is deactivated and the password is right, then 403 "Your account has been deactivated"', async () => {
      const account = await auth.register();
      const { token } = await auth.seedAdmin();
      await auth.request('PATCH', `/api/admin/users/${account.user.id}/status`, { token, body: { isActive: false } });

      const response = await auth.request('POST', '/api/platform/login', {
        body: { email: account.email, password: account.password },
      });

      expectError(response, 403, 'Your account has been deactivated');
      const wrong = await auth.request('POST', '/api/platform/login', {
        body: { email: account.email, password: 'Wrong!Passw0rd' },
      });
      expectError(wrong, 401, 'Invalid email or password');
    });

    test.each([
      [{ password: validPassword }, 'Email is required'],
      [{ email: 'a@example.com' }, 'Password is required'],
      [{ email: '', password: validPassword }, 'Email is required'],
      [{ email: 'a@example.com', password: '' }, 'Password is required'],
    ])('when the body is %j, then 400 "%s"', async (body, error) => {
      expectError(await auth.request('POST', '/api/platform/login', { body }), 400, error);
    });
  });

  describe('GET /api/platform/profile', () => {
    test('when the user is deactivated after signing in, then 401 "Your account has been deactivated" (the platform\'s check, as at the gateway)', async () => {
      const account = await auth.register();
      const { token } = await auth.seedAdmin();
      await auth.request('PATCH', `/api/admin/users/${account.user.id}/status`, { token, body: { isActive: false } });
      await eventually(async () =>
        expectError(
          await auth.request('GET', '/api/platform/profile', { token: account.token }),
          401,
          'Your account has been deactivated',
        ),
      );
    });

    test('when the token names a user that does not exist, then 401', async () => {
      const token = auth.tokenFor({ _id: 'no-such-user', username: 'ghost', role: 'USER' });
      expectError(await auth.request('GET', '/api/platform/profile', { token }), 401, 'User not found');
    });

    test('when there is no token, then 401 "Authentication required"', async () => {
      expectError(await auth.request('GET', '/api/platform/profile'), 401, 'Authentication required');
    });

    test('when the token is malformed, then 401 "Invalid or expired token"', async () => {
      expectError(
        await auth.request('GET', '/api/platform/profile', { token: 'not.a.jwt' }),
        401,
        'Invalid or expired token',
      );
    });

    test('when the token is signed with another key, then 401 "Invalid or expired token"', async () => {
      const account = await auth.register();
      const forged = createTokenSigner(generateJwtKeyPair().privateKeyPem, { expiresInSeconds: 3600 }).sign({
        userId: account.user.id,
        username: account.username,
        role: 'USER',
      });
      expectError(
        await auth.request('GET', '/api/platform/profile', { token: forged }),
        401,
        'Invalid or expired token',
      );
    });

    test('when the token uses alg none, then 401 "Invalid or expired token"', async () => {
      const account = await auth.register();
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const now = Math.floor(auth.clock.now().getTime() / 1000);
      const unsigned = `${part({ alg: 'none', typ: 'JWT' })}.${part({
        sub: account.user.id,
        username: account.username,
        role: 'USER',
        iat: now,
        exp: now + 60,
        iss: 'kickstand-auth',
        aud: 'kickstand',
      })}.`;
      expectError(
        await auth.request('GET', '/api/platform/profile', { token: unsigned }),
        401,
        'Invalid or expired token',
      );
    });
  });

  describe('POST /api/platform/logout', () => {
    test('when a user logs out, then 204, user.changed SIGNED_OUT with token version 1 is published, and the old token is refused while a new sign-in works', async () => {
      const account = await auth.register();
      const response = await auth.request('POST', '/api/platform/logout', { token: account.token });
      expect(response.status).toBe(204);

      const published = auth.recorded.publishedWithKeys('user.changed').filter(({ key }) => key === account.user.id);
      expect(published.map(({ message }) => [message.kind, message.tokenVersion])).toEqual([
        [UserChangeKind.CREATED, 0],
        [UserChangeKind.SIGNED_OUT, 1],
      ]);
      await eventually(async () =>
        expectError(
          await auth.request('GET', '/api/platform/profile', { token: account.token }),
          401,
          'Your session has ended: please sign in again',
        ),
      );
      expectError(
        await auth.request('POST', '/api/platform/logout', { token: account.token }),
        401,
        'Your session has ended: please sign in again',
      );

      const login = await auth.request('POST', '/api/platform/login', {
        body: { email: account.email, password: account.password },
      });
      expect(login.status).toBe(200);
      expect((await auth.request('GET', '/api/platform/profile', { token: login.body.data.token })).status).toBe(200);
    });

    test('when there is no token, then 401 "Authentication required"', async () => {
      expectError(await auth.request('POST', '/api/platform/logout'), 401, 'Authentication required');
    });
  });

  describe('request bodies', () => {
    test.each([
      ['an operator object as the email', 'Email must be a string', { email: { $gt: '' }, password: validPassword }],
      [
        'an operator object as the password',
        'Password must be a string',
        { email: 'a@example.com', password: { $ne: null } },
      ],
      ['a number as the email', 'Email must be a string', { email: 42, password: validPassword }],
      [
        'an unknown field',
        'Unrecognized key: "role"',
        { email: 'a@example.com', password: validPassword, role: 'SUPER_ADMIN' },
      ],
    ])('when login gets %s, then 400 %j', async (_case, error, body) => {
      expectError(await auth.request('POST', '/api/platform/login', { body }), 400, error);
    });

    test('when register gets an unknown field (a role), then 400 and no user is made', async () => {
      const account = newAccount();
      const response = await auth.request('POST', '/api/platform/register', {
        body: { ...account, role: 'SUPER_ADMIN' },
      });
      expectError(response, 400, 'Unrecognized key: "role"');
      expect(await auth.repo.users.findByEmail(account.email)).toBeNull();
    });

    test('when register gets a confirmPassword field, then 400 (the spec sends email, username, password only)', async () => {
      const account = newAccount();
      const response = await auth.request('POST', '/api/platform/register', {
        body: { ...account, confirmPassword: account.password },
      });
      expectError(response, 400, 'Unrecognized key: "confirmPassword"');
    });

    test('when the body is not JSON, then 400 "Request body is not valid JSON"', async () => {
      expectError(
        await auth.request('POST', '/api/platform/login', { rawBody: '{"email": ' }),
        400,
        'Request body is not valid JSON',
      );
    });

    test('when the body is over the limit, then 413 "Request body is too large"', async () => {
      const response = await auth.request('POST', '/api/platform/register', {
        body: { ...newAccount(), username: 'x'.repeat(200_000) },
      });
      expectError(response, 413, 'Request body is too large');
    });
  });
});

describe('expired tokens', () => {
  test('when the token is older than its lifetime, then 401 "Invalid or expired token"', async () => {
    const auth = await startAuthForTest({ tokenTtlSeconds: 3600 });
    try {
      const account = await auth.register();
      expect((await auth.request('GET', '/api/platform/profile', { token: account.token })).status).toBe(200);

      auth.clock.advance(3601 * 1000);

      expectError(
        await auth.request('GET', '/api/platform/profile', { token: account.token }),
        401,
        'Invalid or expired token',
      );
    } finally {
      await auth.close();
    }
  });
});

describe('secrets in logs and answers', () => {
  test('when users register, sign in and fail to, then neither the password nor its hash is logged or answered', async () => {
    const { log, lines } = captureLog();
    const auth = await startAuthForTest({ log });
    try {
      const password = `Secret!${unique()}9Zz`;
      const account = await auth.register({ password });
      const { token } = await auth.seedAdmin();
      const answers = [
        await auth.request('POST', '/api/platform/login', { body: { email: account.email, password } }),
        await auth.request('POST', '/api/platform/login', { body: { email: account.email, password: `${password}x` } }),
        await auth.request('POST', '/api/platform/register', { body: { ...newAccount(), password } }),
        await auth.request('POST', '/api/platform/register', { body: { ...newAccount(), password: 'Short!1' } }),
        await auth.request('GET', '/api/platform/profile', { token: account.token }),
        await auth.request('GET', '/api/admin/users?limit=200', { token }),
      ].map((response) => response.text);
      const hash = (await auth.repo.users.findById(account.user.id))?.passwordHash ?? '';
      expect(hash).not.toBe('');
      const everything = [...lines, ...answers].join('\n');

      expect(lines.length).toBeGreaterThan(5);
      expect(everything).not.toContain(password);
      expect(everything).not.toContain('Short!1');
      expect(everything).not.toContain(hash);
      expect(everything).not.toContain('$argon2');
      expect(answers.join('\n')).not.toContain('passwordHash');
    } finally {
      await auth.close();
    }
  });
});
