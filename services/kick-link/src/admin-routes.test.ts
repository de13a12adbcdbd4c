import { randomUUID } from 'node:crypto';
import { eventually } from '@kickstand/platform/testing';
import { BotControlAction, ChatSubscriptionState, UserChangeKind, UserRole } from '@kickstand/proto';
import { aKickName, startStack, type Stack } from './testing/test-harness';

let stack: Stack;
let adminToken: string;
const adminId = `admin-${randomUUID()}`;

beforeAll(async () => {
  stack = await startStack();
  adminToken = stack.tokenFor(adminId, 'SUPER_ADMIN', 'root');
});

afterAll(async () => {
  await stack.close();
});

const allEvents = [
  'chat.message.sent',
  'channel.followed',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
  'channel.subscription.new',
  'livestream.status.updated',
  'livestream.metadata.updated',
  'moderation.banned',
];

interface Target {
  userId: string;
  username: string;
  kickName: string;
  broadcasterId: number;
}

async function userCreated(userId: string, username: string): Promise<void> {
  await stack.platform.bus.publish('user.changed', userId, {
    eventId: randomUUID(),
    userId,
    kind: UserChangeKind.CREATED,
    username,
    role: UserRole.USER,
    isActive: true,
  });
}

async function aLinkedUser(): Promise<Target> {
  const userId = `u-${randomUUID()}`;
  const username = `streamer-${userId.slice(2, 10)}`;
  await userCreated(userId, username);
  const kickName = aKickName();
  expect((await stack.link(userId, kickName)).location).toBe('/dashboard?kick_linked=true');
  return { userId, username, kickName, broadcasterId: await stack.kickUserId(kickName) };
}

interface Body {
  success: boolean;
  message?: string;
  error?: string;
  data?: {
    subscriptions?: { id: string; event: string; status: string }[];
    created?: string[];
    removed?: { id: string; event: string }[];
    bot?: { isRunning: boolean; kickUsername: string };
  };
}

const asAdmin = (method: string, path: string, body?: unknown) =>
  stack.api<Body>(method, path, { token: adminToken, body });

const auditsFor = (userId: string) =>
  stack.recorded
    .publishedWithKeys('audit.recorded')
    .filter(({ key }) => key === userId)
    .map(({ message }) => message);

const eventsAtKick = async (broadcasterId: number) =>
  (await stack.subscriptionsAtKick(broadcasterId)).map((subscription) => subscription.event).sort();

describe('GET /api/admin/users/:id/webhooks', () => {
  test("when the user has a linked account, then the channel's subscriptions are listed as active", async () => {
    const target = await aLinkedUser();
    await stack.subscribeAtKick(target.broadcasterId, ['chat.message.sent', 'channel.followed']);
    // another channel's subscriptions never show up
    await stack.subscribeAtKick((await aLinkedUser()).broadcasterId, ['moderation.banned']);

    const answer = await asAdmin('GET', `/api/admin/users/${target.userId}/webhooks`);

    expect(answer.status).toBe(200);
    expect(answer.json.success).toBe(true);
    const listed = answer.json.data?.subscriptions ?? [];
    expect(listed.map(({ event, status }) => [event, status]).sort()).toEqual([
      ['channel.followed', 'active'],
      ['chat.message.sent', 'active'],
    ]);
    expect(listed.every(({ id }) => /^[0-9A-Z]{26}$/.test(id))).toBe(true);
  });

  test('when the caller is not a super administrator, then 403', async () => {
    const target = await aLinkedUser();
    const answer = await stack.api('GET', `/api/admin/users/${target.userId}/webhooks`, {
      token: stack.tokenFor(target.userId),
    });
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({ success: false, error: 'Administrator access required' });
  });

  test('when nobody is signed in, then 401', async () => {
    expect((await stack.api('GET', '/api/admin/users/x/webhooks')).status).toBe(401);
  });

  test('when the user exists but linked no Kick account, then 400 "This user has no linked Kick account"', async () => {
    const userId = `u-${randomUUID()}`;
    await userCreated(userId, 'unlinked-user');
    await eventually(async () =>
      expect((await asAdmin('GET', `/api/admin/users/${userId}/webhooks`)).status).toBe(400),
    );
    const answer = await asAdmin('GET', `/api/admin/users/${userId}/webhooks`);
    expect(answer.json).toEqual({ success: false, error: 'This user has no linked Kick account' });
  });

  test('when the user is unknown, then 404', async () => {
    const answer = await asAdmin('GET', `/api/admin/users/u-${randomUUID()}/webhooks`);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ success: false, error: 'User not found' });
  });
});

describe('POST /api/admin/users/:id/webhooks', () => {
  test('when an event is subscribed, then "Subscribed successfully", one subscription at Kick, and audit.recorded', async () => {
    const target = await aLinkedUser();

    const answer = await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks`, { event: 'channel.followed' });

    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      success: true,
      message: 'Subscribed successfully',
      data: { subscriptions: [{ event: 'channel.followed', status: 'active' }], created: ['channel.followed'] },
    });
    expect(await eventsAtKick(target.broadcasterId)).toEqual(['channel.followed']);
    const audits = auditsFor(target.userId);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorUserId: adminId,
      actorUsername: 'root',
      action: 'webhook.subscribed',
      targetType: 'user',
      targetId: target.userId,
      targetUsername: target.username,
    });
    expect(audits[0]?.details).toMatchObject({
      events: 'channel.followed',
      created: 'channel.followed',
      subscriptionIds: answer.json.data?.subscriptions?.[0]?.id,
      broadcasterUserId: String(target.broadcasterId),
    });
  });

  test('when the event is already subscribed, then no duplicate is created', async () => {
    const target = await aLinkedUser();
    await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks`, { event: 'moderation.banned' });

    const again = await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks`, { event: 'moderation.banned' });

    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ success: true, message: 'Subscribed successfully', data: { created: [] } });
    expect(await eventsAtKick(target.broadcasterId)).toEqual(['moderation.banned']);
  });

  test.each([
    ['an unknown event', { event: 'kicks.gifted' }],
    ['no event', {}],
    ['an event that is not a string', { event: 5 }],
  ])('when the body has %s, then 400 and nothing changes at Kick', async (_name, body) => {
    const target = await aLinkedUser();

    const answer = await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks`, body);

    expect(answer.status).toBe(400);
    expect(answer.json.success).toBe(false);
    expect(answer.json.error).toMatch(/event/);
    expect(await eventsAtKick(target.broadcasterId)).toEqual([]);
    expect(auditsFor(target.userId)).toEqual([]);
  });

  test("when Kick refuses (subscription limit), then 502 with Kick's reason", async () => {
    const target = await aLinkedUser();
    await stack.control('PATCH', '/app', { subscriptionLimit: 0 });
    try {
      const answer = await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks`, {
        event: 'channel.followed',
      });

      expect(answer.status).toBe(502);
      expect(answer.json).toEqual({ success: false, error: 'event subscription limit reached' });
    } finally {
      await stack.control('PATCH', '/app', { subscriptionLimit: 1000 });
    }
  });

  test('when the user has no linked account, then 400', async () => {
    const userId = `u-${randomUUID()}`;
    await userCreated(userId, 'unlinked-too');
    await eventually(async () => {
      const answer = await asAdmin('POST', `/api/admin/users/${userId}/webhooks`, { event: 'channel.followed' });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toBe('This user has no linked Kick account');
    });
  });
});

describe('POST /api/admin/users/:id/webhooks/subscribe-batch', () => {
  test('when events are chosen, then "Subscribed to selected events", only the missing ones are created, and audit.recorded', async () => {
    const target = await aLinkedUser();
    await stack.subscribeAtKick(target.broadcasterId, ['channel.followed']);

    const answer = await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks/subscribe-batch`, {
      events: ['channel.followed', 'livestream.status.updated', 'moderation.banned'],
    });

    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      success: true,
      message: 'Subscribed to selected events',
      data: { created: ['livestream.status.updated', 'moderation.banned'] },
    });
    expect(answer.json.data?.subscriptions).toHaveLength(3);
    expect(await eventsAtKick(target.broadcasterId)).toEqual([
      'channel.followed',
      'livestream.status.updated',
      'moderation.banned',
    ]);
    expect(auditsFor(target.userId).map((audit) => audit.action)).toEqual(['webhook.subscribed-batch']);
    expect(auditsFor(target.userId)[0]?.details.events).toBe(
      'channel.followed,livestream.status.updated,moderation.banned',
    );
  });

  test.each([
    ['an empty list', { events: [] }],
    ['an unknown event', { events: ['channel.followed', 'channel.unfollowed'] }],
    ['no list', {}],
  ])('when the body has %s, then 400', async (_name, body) => {
    const target = await aLinkedUser();
    const answer = await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks/subscribe-batch`, body);
    expect(answer.status).toBe(400);
    expect(await eventsAtKick(target.broadcasterId)).toEqual([]);
  });
});

describe('subscribe-all and unsubscribe-all', () => {
  test('when all events are subscribed twice, then "Subscribed to all events" and exactly the eight subscriptions exist', async () => {
    const target = await aLinkedUser();

    const first = await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks/subscribe-all`);
    const second = await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks/subscribe-all`);

    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ success: true, message: 'Subscribed to all events' });
    expect(first.json.data?.created).toEqual(allEvents);
    expect(second.json.data?.created).toEqual([]);
    expect(await eventsAtKick(target.broadcasterId)).toEqual([...allEvents].sort());
    expect(auditsFor(target.userId).map((audit) => audit.action)).toEqual([
      'webhook.subscribed-all',
      'webhook.subscribed-all',
    ]);
  });

  test('when all are unsubscribed, then "Unsubscribed from all events", none is left, bot-runner hears INACTIVE, and audit.recorded', async () => {
    const target = await aLinkedUser();
    await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks/subscribe-all`);

    const answer = await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks/unsubscribe-all`);

    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ success: true, message: 'Unsubscribed from all events' });
    expect(answer.json.data?.removed).toHaveLength(8);
    expect(await eventsAtKick(target.broadcasterId)).toEqual([]);
    const audit = auditsFor(target.userId).at(-1);
    expect(audit?.action).toBe('webhook.unsubscribed-all');
    expect(audit?.details.subscriptionIds?.split(',')).toHaveLength(8);
    const states = stack.recorded
      .publishedWithKeys('chat.subscription')
      .filter(({ key }) => key === target.userId)
      .map(({ message }) => message.state);
    expect(states).toEqual([ChatSubscriptionState.INACTIVE]);
  });

  test('when the bot runs, then the list names it; unsubscribe-all tells bot-runner an administrator removed its chat and it stays removed', async () => {
    const target = await aLinkedUser();
    await stack.platform.bus.publish('bot.control', target.userId, {
      eventId: randomUUID(),
      userId: target.userId,
      broadcasterUserId: String(target.broadcasterId),
      action: BotControlAction.START,
      requestId: `req-${randomUUID()}`,
    });
    await eventually(async () =>
      expect((await asAdmin('GET', `/api/admin/users/${target.userId}/webhooks`)).json.data?.bot).toEqual({
        isRunning: true,
        kickUsername: target.kickName,
      }),
    );

    await asAdmin('POST', `/api/admin/users/${target.userId}/webhooks/unsubscribe-all`);

    const told = stack.recorded
      .publishedWithKeys('chat.subscription')
      .filter(({ key }) => key === target.userId)
      .map(({ message }) => [message.state, message.requestId === '', message.isRemovedByAdmin]);
    expect(told.at(-1)).toEqual([ChatSubscriptionState.INACTIVE, true, true]);
    // the reconciler no longer keeps this channel subscribed: the administrator's choice holds
    const listed = await asAdmin('GET', `/api/admin/users/${target.userId}/webhooks`);
    expect(listed.json.data).toEqual({ subscriptions: [], bot: { isRunning: false, kickUsername: target.kickName } });
  });
});

describe('DELETE /api/admin/users/:id/webhooks/:subscriptionId', () => {
  test('when the subscription belongs to the channel, then "Unsubscribed successfully" and audit.recorded', async () => {
    const target = await aLinkedUser();
    await stack.subscribeAtKick(target.broadcasterId, ['channel.followed', 'moderation.banned']);
    const [followed] = (await stack.subscriptionsAtKick(target.broadcasterId)).filter(
      (subscription) => subscription.event === 'channel.followed',
    );

    const answer = await asAdmin('DELETE', `/api/admin/users/${target.userId}/webhooks/${followed?.id}`);

    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ success: true, message: 'Unsubscribed successfully' });
    expect(await eventsAtKick(target.broadcasterId)).toEqual(['moderation.banned']);
    expect(auditsFor(target.userId)).toEqual([
      expect.objectContaining({
        action: 'webhook.unsubscribed',
        details: expect.objectContaining({ events: 'channel.followed', subscriptionIds: followed?.id }),
      }),
    ]);
  });

  test('when the subscription belongs to another channel, then 404 and it stays', async () => {
    const target = await aLinkedUser();
    const other = await aLinkedUser();
    await stack.subscribeAtKick(other.broadcasterId, ['channel.followed']);
    const [theirs] = await stack.subscriptionsAtKick(other.broadcasterId);

    const answer = await asAdmin('DELETE', `/api/admin/users/${target.userId}/webhooks/${theirs?.id}`);

    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ success: false, error: 'Subscription not found' });
    expect(await eventsAtKick(other.broadcasterId)).toEqual(['channel.followed']);
    expect(auditsFor(target.userId)).toEqual([]);
  });

  test('when a USER calls it, then 403', async () => {
    const target = await aLinkedUser();
    const answer = await stack.api('DELETE', `/api/admin/users/${target.userId}/webhooks/x`, {
      token: stack.tokenFor(target.userId),
    });
    expect(answer.status).toBe(403);
  });
});
