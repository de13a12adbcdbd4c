import { seedUserIds } from '../seed';
import { startSandboxForTest, type SandboxHarness } from '../testing/sandbox-harness';

const invalidRequest = { data: {}, message: 'Invalid request' };
const streamer = seedUserIds.sandbox_streamer;

interface BanLine {
  userId: number;
  moderatorUserId: number;
  reason: string;
  source: string;
  isTimeout: boolean;
  isActive: boolean;
  expiresAt: string | null;
}

describe('POST and DELETE /public/v1/moderation/bans', () => {
  let sandbox: SandboxHarness;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandboxForTest();
    token = (await sandbox.linkUser('sandbox_bot', ['moderation:ban'])).access_token;
    const app = await sandbox.appToken();
    await sandbox.request('POST', '/public/v1/events/subscriptions', {
      token: app,
      body: { broadcaster_user_id: streamer, method: 'webhook', events: [{ name: 'moderation.banned', version: 1 }] },
    });
  });
  beforeEach(() => sandbox.receiver.clear());
  afterAll(() => sandbox.close());

  test('when a moderator times a user out, then 200 {data:{},message:"OK"}, the ban is recorded and moderation.banned is delivered', async () => {
    const answer = await sandbox.request('POST', '/public/v1/moderation/bans', {
      token,
      body: { broadcaster_user_id: streamer, user_id: seedUserIds.viewer_carol, duration: 10, reason: 'link spam' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: {}, message: 'OK' });
    const bans = await sandbox.control<BanLine[]>('GET', `/bans?broadcasterUserId=${streamer}`);
    expect(bans.at(-1)).toMatchObject({
      userId: seedUserIds.viewer_carol,
      moderatorUserId: seedUserIds.sandbox_bot,
      reason: 'link spam',
      source: 'api',
      isTimeout: true,
      isActive: true,
    });
    const [delivery] = await sandbox.receiver.waitFor(1);
    const body = delivery?.body as { metadata: { created_at: string; expires_at: string } };
    expect(delivery?.body).toMatchObject({
      moderator: { username: 'sandbox_bot' },
      banned_user: { username: 'viewer_carol' },
      metadata: { reason: 'link spam' },
    });
    expect(Date.parse(body.metadata.expires_at) - Date.parse(body.metadata.created_at)).toBe(10 * 60_000);
  });

  test('when a permanent ban is given, then expires_at is null', async () => {
    await sandbox.request('POST', '/public/v1/moderation/bans', {
      token,
      body: { broadcaster_user_id: streamer, user_id: seedUserIds.viewer_bob },
    });
    const [delivery] = await sandbox.receiver.waitFor(1);
    expect(delivery?.body).toMatchObject({ metadata: { reason: '', expires_at: null } });
  });

  test('when unbanned with a JSON body on DELETE, then 200 and the ban is no longer active', async () => {
    const answer = await sandbox.request('DELETE', '/public/v1/moderation/bans', {
      token,
      body: { broadcaster_user_id: streamer, user_id: seedUserIds.viewer_bob },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: {}, message: 'OK' });
    const bans = await sandbox.control<BanLine[]>('GET', `/bans?broadcasterUserId=${streamer}`);
    expect(bans.filter((ban) => ban.userId === seedUserIds.viewer_bob).every((ban) => !ban.isActive)).toBe(true);
  });

  test.each([
    ['duration is 0', { duration: 0 }],
    ['duration is over 7 days', { duration: 10081 }],
    ['duration is not an integer', { duration: 1.5 }],
    ['reason is over 100 characters', { reason: 'x'.repeat(101) }],
    ['user_id is missing', { user_id: undefined }],
  ])('when %s, then 400 Invalid request', async (_name, change) => {
    const body = { broadcaster_user_id: streamer, user_id: seedUserIds.viewer_alice, ...change };
    const answer = await sandbox.request('POST', '/public/v1/moderation/bans', { token, body });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidRequest);
  });

  test('when DELETE has no body, then 400 Invalid request', async () => {
    expect((await sandbox.request('DELETE', '/public/v1/moderation/bans', { token })).json).toEqual(invalidRequest);
  });

  test('when the token user is not a moderator of the channel, then 403', async () => {
    const outsider = await sandbox.linkUser('viewer_alice', ['moderation:ban']);
    const answer = await sandbox.request('POST', '/public/v1/moderation/bans', {
      token: outsider.access_token,
      body: { broadcaster_user_id: streamer, user_id: seedUserIds.viewer_bob },
    });
    expect(answer.status).toBe(403);
  });

  test('when the user to ban does not exist, then 400 User not found', async () => {
    const answer = await sandbox.request('POST', '/public/v1/moderation/bans', {
      token,
      body: { broadcaster_user_id: streamer, user_id: 87654321 },
    });
    expect(answer.json).toEqual({ data: 'User not found', message: 'Bad request' });
  });
});
