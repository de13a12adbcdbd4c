import {
  defaultLoginThrottle,
  delayAfterFailures,
  tooManyAttemptsMessage,
  type LoginThrottleSettings,
} from './login-throttle';
import { newAccount, startAuthForTest, unique, type ApiResponse, type TestAuth } from './testing/test-utils';

const addressA = { 'x-forwarded-for': '198.51.100.7' };
const addressB = { 'x-forwarded-for': '203.0.113.20' };
const wrongPassword = 'Wrong!Passw0rd';

const expectWait = (response: ApiResponse, seconds: number) => {
  expect({ status: response.status, body: response.body, retryAfter: response.headers.get('retry-after') }).toEqual({
    status: 429,
    body: { success: false, error: tooManyAttemptsMessage(seconds) },
    retryAfter: String(seconds),
  });
};

describe('the policy', () => {
  test('when nothing is configured, then 5 free failures per account and address, 1 s doubling to 15 min, 100 failures per address in 15 min', () => {
    expect(defaultLoginThrottle).toEqual({
      freeFailures: 5,
      firstDelaySeconds: 1,
      maxDelaySeconds: 900,
      failureMemorySeconds: 86_400,
      addressFailures: 100,
      addressWindowSeconds: 900,
    });
  });

  test('when failures add up, then the wait after each is 0 four times, then 1, 2, 4 … 512, then 900 seconds for good', () => {
    const waits = Array.from({ length: 18 }, (_, i) => delayAfterFailures(i + 1, defaultLoginThrottle));
    expect(waits).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900, 900]);
    expect(delayAfterFailures(10_000, defaultLoginThrottle)).toBe(900);
  });

  test('when the wait is given, then the message says it in seconds under a minute, else in minutes rounded up', () => {
    expect(tooManyAttemptsMessage(1)).toBe('Too many attempts. Please try again in 1 second.');
    expect(tooManyAttemptsMessage(37)).toBe('Too many attempts. Please try again in 37 seconds.');
    expect(tooManyAttemptsMessage(60)).toBe('Too many attempts. Please try again in 1 minute.');
    expect(tooManyAttemptsMessage(61)).toBe('Too many attempts. Please try again in 2 minutes.');
    expect(tooManyAttemptsMessage(900)).toBe('Too many attempts. Please try again in 15 minutes.');
  });
});

describe('sign-in throttling at the door', () => {
  let auth: TestAuth;
  const start = async (
    settings: Partial<LoginThrottleSettings> = {},
    extra: Parameters<typeof startAuthForTest>[0] = {},
  ) => {
    // the addresses below arrive as X-Forwarded-For from the test's loopback "proxy"
    auth = await startAuthForTest({
      loginThrottle: { ...defaultLoginThrottle, ...settings },
      trustProxy: 'loopback',
      ...extra,
    });
  };
  afterEach(() => auth.close());

  const login = (email: string, password: string, headers: Record<string, string>) =>
    auth.request('POST', '/api/platform/login', { body: { email, password }, headers });

  test("when someone fails 11 times a minute for the admin's email from address A, then the admin logs in from address B at once", async () => {
    const admin = { email: `owner_${unique()}@example.com`, password: 'Own3r!Kickstand', username: 'owner' };
    await start({}, { superAdmin: admin });

    const attack: number[] = [];
    for (let i = 0; i < 11; i++) {
      attack.push((await login(admin.email, wrongPassword, addressA)).status);
      auth.clock.advance(5_000);
    }
    // the attacker's own pair slows down: five answers, then mostly waits
    expect(attack.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(attack).toContain(429);
    expect(attack.every((status) => status === 401 || status === 429)).toBe(true);

    const owner = await login(admin.email, admin.password, addressB);

    expect(owner.status).toBe(200);
    expect(owner.body.data.user).toMatchObject({ email: admin.email, role: 'SUPER_ADMIN' });
  });

  test('when a newcomer sends the registration form with validation errors 5 times, then registers and logs in at once', async () => {
    await start();
    const account = newAccount();
    const mistakes = [
      { ...account, password: 'short' },
      { ...account, password: 'nouppercase1!' },
      { ...account, email: 'not-an-email' },
      { ...account, username: 'no spaces' },
      { ...account, password: 'Password1!' },
    ];
    for (const body of mistakes) {
      expect((await auth.request('POST', '/api/platform/register', { body, headers: addressA })).status).toBe(400);
    }

    const registered = await auth.request('POST', '/api/platform/register', { body: account, headers: addressA });
    const signedIn = await login(account.email, account.password, addressA);

    expect(registered.status).toBe(201);
    expect(signedIn.status).toBe(200);
  });

  test('when sign-in bodies are malformed many times, then none of them counts', async () => {
    await start({ addressFailures: 3 });
    const account = await auth.register();
    for (let i = 0; i < 10; i++) {
      const malformed = await auth.request('POST', '/api/platform/login', {
        body: { email: account.email },
        headers: addressA,
      });
      expect(malformed.status).toBe(400);
    }
    expect((await login(account.email, account.password, addressA)).status).toBe(200);
  });

  test('when one account keeps failing from one address, then the wait doubles from 1 s after the 5th failure up to 15 minutes', async () => {
    await start();
    const account = await auth.register();
    for (let i = 0; i < 4; i++) expect((await login(account.email, wrongPassword, addressA)).status).toBe(401);

    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      expect((await login(account.email, wrongPassword, addressA)).status).toBe(401);
      const refused = await login(account.email, account.password, addressA);
      expect(refused.status).toBe(429);
      const seconds = Number(refused.headers.get('retry-after'));
      expectWait(refused, seconds);
      waits.push(seconds);
      auth.clock.advance(seconds * 1000);
    }

    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    // meanwhile the account was never closed to another address
    expect((await login(account.email, account.password, addressB)).status).toBe(200);
  });

  test('when a wait is running, then a retry half-way is told the rest of it', async () => {
    await start();
    const account = await auth.register();
    for (let i = 0; i < 9; i++) {
      await login(account.email, wrongPassword, addressA);
      auth.clock.advance(16_000);
    }
    // the 9th failure set a 16 s wait
    auth.clock.set(new Date(auth.clock.now().getTime() - 16_000 + 6_500));

    expectWait(await login(account.email, account.password, addressA), 10);
  });

  test('when the right password follows failures, then the pair starts again from zero', async () => {
    await start();
    const account = await auth.register();
    for (let i = 0; i < 4; i++) expect((await login(account.email, wrongPassword, addressA)).status).toBe(401);
    expect((await login(account.email, account.password, addressA)).status).toBe(200);

    // without the reset, the first of these would be the 5th failure and the second would wait
    const after: number[] = [];
    for (let i = 0; i < 4; i++) after.push((await login(account.email, wrongPassword, addressA)).status);
    after.push((await login(account.email, account.password, addressA)).status);

    expect(after).toEqual([401, 401, 401, 401, 200]);
  });

  test('when one address fails across many accounts up to its ceiling, then it waits for the window to end while others do not', async () => {
    await start({ addressFailures: 10, addressWindowSeconds: 900 });
    const account = await auth.register();
    // one failure each for 9 accounts (most do not exist), then a success, then one more failure
    for (let i = 0; i < 9; i++) {
      expect((await login(`guess_${i}_${unique()}@example.com`, wrongPassword, addressA)).status).toBe(401);
    }
    // a success does not give the address its failures back
    expect((await login(account.email, account.password, addressA)).status).toBe(200);
    expect((await login(`guess_${unique()}@example.com`, wrongPassword, addressA)).status).toBe(401);

    // the window opened with the first failure at 12:00 and lasts 15 minutes; at 12:05, ten are
    // left, even for the right password
    auth.clock.advance(300_000);
    expectWait(await login(account.email, account.password, addressA), 600);
    expect((await login(account.email, account.password, addressB)).status).toBe(200);

    auth.clock.advance(600_000);
    expect((await login(account.email, account.password, addressA)).status).toBe(200);
  });

  test('when 20 wrong passwords arrive at once from one address, then no more than its ceiling are checked', async () => {
    await start({ addressFailures: 10 });
    const emails = Array.from({ length: 20 }, () => `burst_${unique()}@example.com`);

    const statuses = (await Promise.all(emails.map((email) => login(email, wrongPassword, addressA)))).map(
      (response) => response.status,
    );

    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });
});
