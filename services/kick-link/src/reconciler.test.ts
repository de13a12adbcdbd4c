import { randomUUID } from 'node:crypto';
import { createSilentLogger } from '@kickstand/platform/log';
import { eventually } from '@kickstand/platform/testing';
import { BotControlAction, ChatSubscriptionState } from '@kickstand/proto';
import type { DeliveryHealthReporter, SubscriptionCheck } from './delivery-health';
import { createStoredDeliveryHealth } from './delivery-health-store';
import type { DeliveryHealthView } from './delivery-health-view';
import { createKickClient } from './kick-client';
import { createAppTokens } from './kick-tokens';
import { defaultHttpTuning } from './options';
import { createReconciler } from './reconciler';
import { createKickLinkRepository } from './repository';
import { createRunningBots } from './running-bots';
import { createChannelSubscriptions } from './subscriptions';
import { aKickName, startStack, testApp, type Stack } from './testing/test-harness';

let stack: Stack;

beforeAll(async () => {
  // the service's own reconciler is off: the tests run instances of their own, tick by tick
  stack = await startStack({ options: { deliveryHealth: { reconcileTickMs: 0, flushIntervalMs: 0 } } });
});

afterAll(async () => {
  await stack.close();
});

const tenMinutes = 10 * 60 * 1000;

interface Streamer {
  userId: string;
  broadcasterId: string;
}

interface Instance {
  tick(): Promise<void>;
  flush(): Promise<void>;
  checks: { channel: string; check: SubscriptionCheck }[];
}

/** A kick-link instance's reconciler against the stack's sandbox and store. */
function anInstance(instanceId: string): Instance {
  const kick = createKickClient({
    connection: {
      clientId: testApp.clientId,
      clientSecret: testApp.clientSecret,
      redirectUri: testApp.redirectUri,
      oauthUrl: stack.sandboxUrl,
      apiUrl: `${stack.sandboxUrl}/public/v1`,
    },
    tuning: { ...defaultHttpTuning, initialBackoffMs: 20, maxBackoffMs: 100 },
  });
  const appTokens = createAppTokens({ kick, clock: stack.clock });
  const log = createSilentLogger();
  const stored = createStoredDeliveryHealth({ store: stack.store, clock: stack.clock, log, flushIntervalMs: 0 });
  const checks: Instance['checks'] = [];
  const recording: DeliveryHealthReporter = {
    ...stored,
    subscriptionsChecked: (channel, check) => {
      checks.push({ channel, check });
      stored.subscriptionsChecked(channel, check);
    },
  };
  const reconciler = createReconciler({
    repo: createKickLinkRepository(stack.store, { oauthStateSeconds: 600 }),
    runningBots: createRunningBots(stack.store),
    subscriptions: createChannelSubscriptions({ kick, appTokens }),
    kick,
    appTokens,
    health: recording,
    stored,
    clock: stack.clock,
    log,
    instanceId,
    timing: { tickMs: 0 },
  });
  return { tick: () => reconciler.tick(), flush: () => stored.flush(), checks };
}

const chatStatesOf = (userId: string) =>
  stack.recorded
    .publishedWithKeys('chat.subscription')
    .filter(({ key }) => key === userId)
    .map(({ message }) => message.state);

const control = (userId: string, action: BotControlAction) =>
  stack.platform.bus.publish('bot.control', userId, {
    eventId: randomUUID(),
    userId,
    broadcasterUserId: '0',
    action,
    requestId: `req-${randomUUID()}`,
  });

async function aLinkedStreamer(): Promise<Streamer> {
  const userId = `u-${randomUUID()}`;
  const kickName = aKickName();
  expect((await stack.link(userId, kickName)).location).toBe('/dashboard?kick_linked=true');
  return { userId, broadcasterId: String(await stack.kickUserId(kickName)) };
}

/** A linked streamer whose bot was started (and the START carried out), 30 s later: due for a check. */
async function aRunningBot(): Promise<Streamer> {
  const streamer = await aLinkedStreamer();
  await control(streamer.userId, BotControlAction.START);
  await eventually(() => expect(chatStatesOf(streamer.userId)).toEqual([ChatSubscriptionState.ACTIVE]));
  stack.clock.advance(30_000);
  return streamer;
}

const eventsAtKick = async (broadcasterId: string) =>
  (await stack.subscriptionsAtKick(Number(broadcasterId))).map((subscription) => subscription.event).sort();

async function deleteAtKick(broadcasterId: string, event: string): Promise<void> {
  const ids = (await stack.subscriptionsAtKick(Number(broadcasterId)))
    .filter((subscription) => subscription.event === event)
    .map((subscription) => subscription.id);
  const token = await stack.kickRequest<{ access_token: string }>('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: testApp.clientId, client_secret: testApp.clientSecret },
  });
  const answer = await stack.kickRequest('DELETE', `/public/v1/events/subscriptions?id=${ids.join('&id=')}`, {
    token: token.json.access_token,
  });
  expect(answer.status).toBe(204);
}

async function healthOf(streamer: Streamer): Promise<DeliveryHealthView> {
  const answer = await stack.api<{ data: { health: DeliveryHealthView } }>(
    'GET',
    '/api/platform/kick/delivery-health',
    {
      token: stack.tokenFor(streamer.userId),
    },
  );
  expect(answer.status).toBe(200);
  return answer.json.data.health;
}

const botEventsSorted = [
  'channel.followed',
  'channel.reward.redemption.updated',
  'channel.subscription.gifts',
  'channel.subscription.new',
  'channel.subscription.renewal',
  'chat.message.sent',
  'kicks.gifted',
  'livestream.metadata.updated',
  'livestream.status.updated',
];

describe('subscriptions that heal', () => {
  test('when a running bot is due, then its channel gets every bot event, the chat one kept as it was', async () => {
    const streamer = await aRunningBot();
    const chatId = (await stack.subscriptionsAtKick(Number(streamer.broadcasterId)))[0]?.id;
    await deleteAtKick(streamer.broadcasterId, 'kicks.gifted');
    await deleteAtKick(streamer.broadcasterId, 'channel.reward.redemption.updated');
    const instance = anInstance('a');

    await instance.tick();

    expect(await eventsAtKick(streamer.broadcasterId)).toEqual(botEventsSorted);
    const atKick = await stack.subscriptionsAtKick(Number(streamer.broadcasterId));
    expect(atKick.find((subscription) => subscription.event === 'chat.message.sent')?.id).toBe(chatId);
    expect(instance.checks.filter(({ channel }) => channel === streamer.broadcasterId)).toEqual([
      {
        channel: streamer.broadcasterId,
        check: {
          present: [
            'chat.message.sent',
            'channel.followed',
            'channel.subscription.new',
            'channel.subscription.renewal',
            'channel.subscription.gifts',
            'livestream.status.updated',
            'livestream.metadata.updated',
          ],
          recreated: ['kicks.gifted', 'channel.reward.redemption.updated'],
          missing: [],
          duplicatesRemoved: 0,
          checkedAt: stack.clock.now(),
        },
      },
    ]);
  });

  test('when the chat subscription was dropped at Kick, then the next reconcile creates it again and health shows when', async () => {
    const streamer = await aRunningBot();
    const instance = anInstance('a');
    await instance.tick();
    await deleteAtKick(streamer.broadcasterId, 'chat.message.sent');

    // not due yet: nothing happens before the interval is over
    stack.clock.advance(tenMinutes - 1000);
    await instance.tick();
    expect(await eventsAtKick(streamer.broadcasterId)).toEqual(
      botEventsSorted.filter((event) => event !== 'chat.message.sent'),
    );
    stack.clock.advance(1000);
    await instance.tick();
    await instance.flush();

    expect(await eventsAtKick(streamer.broadcasterId)).toEqual(botEventsSorted);
    const health = await healthOf(streamer);
    expect(health.subscriptions).toEqual({
      checkedAt: stack.clock.now().toISOString(),
      present: [
        'channel.followed',
        'channel.subscription.new',
        'channel.subscription.renewal',
        'channel.subscription.gifts',
        'kicks.gifted',
        'channel.reward.redemption.updated',
        'livestream.status.updated',
        'livestream.metadata.updated',
        'chat.message.sent',
      ],
      missing: [],
      lastRecreatedAt: stack.clock.now().toISOString(),
      lastRecreatedEvents: ['chat.message.sent'],
      duplicatesRemoved: 0,
    });
  });

  test('when the channel holds duplicate subscriptions, then the reconcile leaves one of each and counts the removed ones', async () => {
    const streamer = await aRunningBot();
    await stack.subscribeAtKick(Number(streamer.broadcasterId), ['chat.message.sent', 'kicks.gifted']);
    await stack.subscribeAtKick(Number(streamer.broadcasterId), ['kicks.gifted']);
    const instance = anInstance('a');

    await instance.tick();
    await instance.flush();

    expect(await eventsAtKick(streamer.broadcasterId)).toEqual(botEventsSorted);
    expect((await healthOf(streamer)).subscriptions?.duplicatesRemoved).toBe(3);
  });

  test('when a bot is not running (never started, or stopped), then its channel is left alone', async () => {
    const neverStarted = await aLinkedStreamer();
    const stopped = await aRunningBot();
    await control(stopped.userId, BotControlAction.STOP);
    await eventually(() => expect(chatStatesOf(stopped.userId)).toHaveLength(2));
    stack.clock.advance(tenMinutes);

    const instance = anInstance('a');
    await instance.tick();

    expect(await eventsAtKick(neverStarted.broadcasterId)).toEqual([]);
    expect(await eventsAtKick(stopped.broadcasterId)).toEqual([]);
    const channels = instance.checks.map(({ channel }) => channel);
    expect(channels).not.toContain(neverStarted.broadcasterId);
    expect(channels).not.toContain(stopped.broadcasterId);
  });

  test('when two instances tick together, then each channel is reconciled by one of them only', async () => {
    const streamer = await aRunningBot();
    const first = anInstance('first');
    const second = anInstance('second');

    await Promise.all([first.tick(), second.tick()]);

    const checksOf = (instance: Instance) =>
      instance.checks.filter(({ channel }) => channel === streamer.broadcasterId).length;
    expect(checksOf(first) + checksOf(second)).toBe(1);
    expect(await eventsAtKick(streamer.broadcasterId)).toEqual(botEventsSorted);
    // and the other one does not take it over before the interval is over
    await Promise.all([first.tick(), second.tick()]);
    expect(checksOf(first) + checksOf(second)).toBe(1);
  });

  test('when the channel is live and nothing arrives for 10 minutes, then its health is flagged', async () => {
    const streamer = await aRunningBot();
    await stack.control('PATCH', `/channels/${streamer.broadcasterId}`, { isLive: true });
    stack.clock.advance(tenMinutes);
    const instance = anInstance('a');

    await instance.tick();
    await instance.flush();

    const health = await healthOf(streamer);
    expect(health.live).toEqual({ isLive: true, checkedAt: stack.clock.now().toISOString() });
    expect(health.isBotRunning).toBe(true);
    expect(health.problems).toEqual(['The channel is live but nothing arrived from Kick for 10 minutes']);
  });
});
