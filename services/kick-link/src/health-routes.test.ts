import { randomUUID } from 'node:crypto';
import { createSilentLogger } from '@kickstand/platform/log';
import { createStoredDeliveryHealth } from './delivery-health-store';
import type { DeliveryHealthView } from './delivery-health-view';
import type { HealthList } from './health-routes';
import { aKickName, startStack, type Stack } from './testing/test-harness';

// a stack of its own: the admin list shows every linked channel, so only this file's links are in it
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ options: { deliveryHealth: { reconcileTickMs: 0, flushIntervalMs: 0 } } });
});

afterAll(async () => {
  await stack.close();
});

interface Streamer {
  userId: string;
  kickName: string;
  broadcasterId: string;
}

async function aLinkedStreamer(prefix: string): Promise<Streamer> {
  const userId = `u-${randomUUID()}`;
  const kickName = aKickName(prefix);
  expect((await stack.link(userId, kickName)).location).toBe('/dashboard?kick_linked=true');
  return { userId, kickName, broadcasterId: String(await stack.kickUserId(kickName)) };
}

const reporter = () =>
  createStoredDeliveryHealth({ store: stack.store, clock: stack.clock, log: createSilentLogger(), flushIntervalMs: 0 });

const adminToken = () => stack.tokenFor(`admin-${randomUUID()}`, 'SUPER_ADMIN', 'root');

const ownHealth = (token?: string) =>
  stack.api<{ success: boolean; error?: string; data: { hasKickAccount: boolean; health: DeliveryHealthView | null } }>(
    'GET',
    '/api/platform/kick/delivery-health',
    { token },
  );

const list = (query: string, token?: string) =>
  stack.api<{ success: boolean; error?: string; data: HealthList }>('GET', `/api/admin/kick/delivery-health${query}`, {
    token,
  });

let healthy: Streamer;
let failing: Streamer;
let alsoHealthy: Streamer;

beforeAll(async () => {
  // names sort: a… b… c…
  healthy = await aLinkedStreamer('a');
  failing = await aLinkedStreamer('b');
  alsoHealthy = await aLinkedStreamer('c');
  const health = reporter();
  health.deliveryAccepted(healthy.broadcasterId, new Date(stack.clock.now().getTime() - 250), stack.clock.now());
  health.reply(healthy.broadcasterId, 'streamer-bot', 'sent');
  health.reply(failing.broadcasterId, 'bot-account', 'failed', 'Kick refused the message: banned');
  health.deliveryRefused(null, 'bad-signature');
  await health.flush();
});

describe('GET /api/platform/kick/delivery-health', () => {
  test('when the streamer asks, then the health of their own channel is answered', async () => {
    const answer = await ownHealth(stack.tokenFor(healthy.userId));

    expect(answer.status).toBe(200);
    const health = answer.json.data.health;
    expect(answer.json.data.hasKickAccount).toBe(true);
    expect(health?.broadcasterUserId).toBe(healthy.broadcasterId);
    expect(health?.kickUsername).toBe(healthy.kickName);
    expect(health?.isHealthy).toBe(true);
    expect(health?.deliveries).toEqual({
      accepted: 1,
      lastReceivedAt: stack.clock.now().toISOString(),
      lastSentAt: new Date(stack.clock.now().getTime() - 250).toISOString(),
      lastLagMs: 250,
    });
    expect(health?.replies['streamer-bot']).toEqual({ sent: 1, failed: 0, dropped: 0 });
  });

  test('when a reply failed, then the streamer sees the channel unhealthy with the failure', async () => {
    const health = (await ownHealth(stack.tokenFor(failing.userId))).json.data.health;

    expect(health?.isHealthy).toBe(false);
    expect(health?.problems).toEqual(['A reply failed in the last hour']);
    expect(health?.lastReplyFailure).toEqual({
      at: stack.clock.now().toISOString(),
      sender: 'bot-account',
      result: 'failed',
      error: 'Kick refused the message: banned',
    });
  });

  test('when the user has no Kick account linked, then hasKickAccount is false and there is no health', async () => {
    const answer = await ownHealth(stack.tokenFor(`u-${randomUUID()}`));

    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual({ hasKickAccount: false, health: null });
  });

  test('when nobody is signed in, then 401', async () => {
    expect((await ownHealth()).status).toBe(401);
  });

  test('when the query carries something unknown, then 400', async () => {
    const answer = await stack.api('GET', '/api/platform/kick/delivery-health?x=1', {
      token: stack.tokenFor(healthy.userId),
    });
    expect(answer.status).toBe(400);
  });
});

describe('GET /api/admin/kick/delivery-health', () => {
  test('when an administrator lists, then every linked channel is answered by name, with paging and the unattributed refusals', async () => {
    const answer = await list('?page=1&limit=2', adminToken());

    expect(answer.status).toBe(200);
    const { channels, pagination, unattributed } = answer.json.data;
    expect(channels.map((channel) => channel.kickUsername)).toEqual([healthy.kickName, failing.kickName]);
    expect(pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
    expect(unattributed.refused).toEqual({ 'bad-signature': 1, 'stale-timestamp': 0, 'too-large': 0 });
    const second = await list('?page=2&limit=2', adminToken());
    expect(second.json.data.channels.map((channel) => channel.kickUsername)).toEqual([alsoHealthy.kickName]);
  });

  test('when unhealthy=true, then only the unhealthy channels are listed', async () => {
    const answer = await list('?unhealthy=true', adminToken());

    expect(answer.json.data.channels.map((channel) => [channel.kickUsername, channel.problems])).toEqual([
      [failing.kickName, ['A reply failed in the last hour']],
    ]);
    expect(answer.json.data.pagination).toEqual({ page: 1, limit: 25, total: 1, pages: 1 });
  });

  test('when a streamer (not an administrator) asks, then 403; when nobody is signed in, then 401', async () => {
    expect((await list('', stack.tokenFor(healthy.userId))).status).toBe(403);
    expect((await list('')).status).toBe(401);
  });

  test.each([
    ['?unhealthy=yes', 'unhealthy must be true or false'],
    ['?page=0', 'Page must be a whole number of 1 or more'],
    ['?limit=101', 'Limit must be a whole number from 1 to 100'],
    ['?sort=name', undefined],
  ])('when the query is %s, then 400', async (query, message) => {
    const answer = await list(query, adminToken());

    expect(answer.status).toBe(400);
    expect(answer.json.success).toBe(false);
    if (message) expect(answer.json.error).toContain(message);
  });
});
