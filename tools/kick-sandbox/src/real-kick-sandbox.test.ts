/**
 * The sandbox behaving like real Kick (kick-api.md §5.1, §7, §8.10, §11 item 13), switched per
 * test through the options, the control API and the harness helpers — and, by default, not at all.
 */
import { createVerify } from 'node:crypto';
import { documentedKick, realKickPreset } from './real-kick';
import { seedUserIds } from './seed';
import { startSandboxForTest, type SandboxHarness } from './testing/sandbox-harness';
import type { ReceivedDelivery } from './testing/webhook-receiver';

const streamer = seedUserIds.sandbox_streamer;
const serverError = { data: null, message: 'Internal server error' };
const channelNotFound = { data: 'Channel not found', message: 'Bad request' };
const tooManyRequests = { data: {}, message: 'Too Many Requests' };
const notSent = { data: { is_sent: false, message_id: '' }, message: 'OK' };
const sent = { data: { is_sent: true, message_id: expect.stringMatching(/^[0-9a-f-]{36}$/) }, message: 'OK' };

interface ChatLine {
  messageId: string;
  senderUsername: string;
  content: string;
}

interface SubscriptionListing {
  data: { id: string; broadcaster_user_id: number; event: string }[];
}

const header = (delivery: ReceivedDelivery | undefined, name: string): string => {
  const value = delivery?.headers[name];
  return typeof value === 'string' ? value : '';
};

/** kick-api.md §8.6's check: a drifted delivery must still verify. */
function verifies(publicKeyPem: string, delivery: ReceivedDelivery | undefined): boolean {
  if (!delivery) return false;
  const verifier = createVerify('RSA-SHA256');
  verifier.update(`${header(delivery, 'kick-event-message-id')}.${header(delivery, 'kick-event-message-timestamp')}.`);
  verifier.update(delivery.rawBody);
  verifier.end();
  return verifier.verify(publicKeyPem, header(delivery, 'kick-event-signature'), 'base64');
}

async function publicKeyOf(sandbox: SandboxHarness): Promise<string> {
  const answer = await sandbox.request('GET', '/public/v1/public-key');
  return (answer.json as { data: { public_key: string } }).data.public_key;
}

async function subscribe(sandbox: SandboxHarness, events: string[], broadcasterUserId: number = streamer) {
  const answer = await sandbox.request('POST', '/public/v1/events/subscriptions', {
    token: await sandbox.appToken(),
    body: {
      broadcaster_user_id: broadcasterUserId,
      method: 'webhook',
      events: events.map((name) => ({ name, version: 1 })),
    },
  });
  return (answer.json as { data: { subscription_id: string; error: string }[] }).data;
}

async function listSubscriptions(sandbox: SandboxHarness): Promise<SubscriptionListing['data']> {
  const answer = await sandbox.request('GET', '/public/v1/events/subscriptions', { token: await sandbox.appToken() });
  return (answer.json as SubscriptionListing).data;
}

const chatLines = (sandbox: SandboxHarness, broadcasterUserId = streamer) =>
  sandbox.control<ChatLine[]>('GET', `/chat?broadcasterUserId=${broadcasterUserId}`);

describe('real Kick behaviour: chat', () => {
  let sandbox: SandboxHarness;
  let streamerToken: string;
  const send = (body: unknown, token = streamerToken) => sandbox.request('POST', '/public/v1/chat', { token, body });

  beforeAll(async () => {
    sandbox = await startSandboxForTest();
    streamerToken = (await sandbox.linkUser('sandbox_streamer', ['chat:write'])).access_token;
  });
  beforeEach(() => sandbox.documentedKick());
  afterAll(() => sandbox.close());

  test('when nothing was switched, then the settings are the documented ones and type bot, replies and chat work', async () => {
    expect(await sandbox.control('GET', '/real-kick')).toEqual(documentedKick);
    expect((await send({ type: 'bot', content: 'beep' })).json).toEqual(sent);
    const first = await send({ type: 'user', broadcaster_user_id: streamer, content: 'first' });
    const messageId = (first.json as { data: { message_id: string } }).data.message_id;
    const reply = await send({
      type: 'user',
      broadcaster_user_id: streamer,
      content: 're',
      reply_to_message_id: messageId,
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual(sent);
  });

  test('when bot chat answers server-error, then type bot is 500 with or without broadcaster_user_id, type user still works', async () => {
    await sandbox.realKick({ botChat: 'server-error' });
    const before = await chatLines(sandbox);
    for (const body of [
      { type: 'bot', content: 'beep' },
      { type: 'bot', broadcaster_user_id: streamer, content: 'beep' },
    ]) {
      const answer = await send(body);
      expect(answer.status).toBe(500);
      expect(answer.json).toEqual(serverError);
    }
    expect(await chatLines(sandbox)).toEqual(before);
    const asUser = await send({ type: 'user', broadcaster_user_id: streamer, content: 'fallback' });
    expect(asUser.status).toBe(200);
    expect(asUser.json).toEqual(sent);
  });

  test('when bot chat answers channel-not-found, then type bot is 400 Channel not found, type user still works', async () => {
    await sandbox.realKick({ botChat: 'channel-not-found' });
    const answer = await send({ type: 'bot', content: 'beep' });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(channelNotFound);
    expect((await send({ type: 'user', broadcaster_user_id: streamer, content: 'hi' })).status).toBe(200);
  });

  test('when the next 2 chat calls are rate limited, then two 429 in Kick’s envelope, nothing posted, then 200', async () => {
    const settings = await sandbox.realKick({ chatRateLimitNext: 2 });
    expect(settings.chatRateLimitNext).toBe(2);
    const before = await chatLines(sandbox);
    const body = { type: 'user', broadcaster_user_id: streamer, content: 'spam?' };
    for (const _ of [1, 2]) {
      const answer = await send(body);
      expect(answer.status).toBe(429);
      expect(answer.json).toEqual(tooManyRequests);
    }
    expect(await chatLines(sandbox)).toEqual(before);
    expect((await send(body)).status).toBe(200);
    expect((await sandbox.control<{ chatRateLimitNext: number }>('GET', '/real-kick')).chatRateLimitNext).toBe(0);
  });

  test('when the 429 rate is 1, then every chat call is 429 until it is switched back', async () => {
    await sandbox.realKick({ chatRateLimitRate: 1 });
    const body = { type: 'user', broadcaster_user_id: streamer, content: 'hi' };
    expect((await send(body)).status).toBe(429);
    expect((await send(body)).status).toBe(429);
    await sandbox.realKick({ chatRateLimitRate: 0 });
    expect((await send(body)).status).toBe(200);
  });

  test('when the next chat call is not sent, then 200 with is_sent false and an empty id, nothing posted or delivered', async () => {
    await subscribe(sandbox, ['chat.message.sent']);
    sandbox.receiver.clear();
    await sandbox.realKick({ chatNotSentNext: 1 });
    const before = await chatLines(sandbox);
    const answer = await send({ type: 'user', broadcaster_user_id: streamer, content: 'lost' });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(notSent);
    expect(await chatLines(sandbox)).toEqual(before);
    const next = await send({ type: 'user', broadcaster_user_id: streamer, content: 'arrives' });
    expect(next.json).toEqual(sent);
    const deliveries = await sandbox.receiver.waitFor(1);
    expect(deliveries.map((delivery) => (delivery.body as { content: string }).content)).toEqual(['arrives']);
    await sandbox.dropSubscriptions();
  });

  test('when the not-sent rate is 1, then every call answers is_sent false', async () => {
    await sandbox.realKick({ chatNotSentRate: 1 });
    const body = { type: 'user', broadcaster_user_id: streamer, content: 'hi' };
    expect((await send(body)).json).toEqual(notSent);
    expect((await send(body)).json).toEqual(notSent);
  });

  test('when reply targets are refused, then a reply to a real message is 400 while the same message without it works', async () => {
    const target = await sandbox.control<{ message: { messageId: string } }>('POST', '/events/chat', {
      broadcaster: streamer,
      sender: 'viewer_alice',
      content: 'a question',
    });
    await sandbox.realKick({ replyTargets: 'refused' });
    const body = { type: 'user', broadcaster_user_id: streamer, content: 'an answer' };
    const reply = await send({ ...body, reply_to_message_id: target.message.messageId });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ data: 'Reply target not found', message: 'Bad request' });
    expect((await send(body)).json).toEqual(sent);
  });

  test('when reply targets are documented, then only an unknown target is refused (400 Message not found)', async () => {
    const reply = await send({
      type: 'user',
      broadcaster_user_id: streamer,
      content: 'an answer',
      reply_to_message_id: '3f2b8a10-5c6e-4d7f-9a01-7b2c3d4e5f60',
    });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ data: 'Message not found', message: 'Bad request' });
  });

  test("when the daily quota is switched on at runtime, then Kick's quota 400; switched off, chat works again", async () => {
    await sandbox.control('PATCH', '/app', { chatDailyQuota: 0 });
    const body = { type: 'user', broadcaster_user_id: streamer, content: 'hi' };
    const refused = await send(body);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      data: 'Pusher error: API call failed since (daily) message quota exceeded',
      message: 'Bad request',
    });
    await sandbox.control('PATCH', '/app', { chatDailyQuota: null });
    expect((await send(body)).status).toBe(200);
  });
});

describe('real Kick behaviour: a dedicated bot account', () => {
  test('when sandbox_bot authorizes with chat:write and posts as user in another channel, then it is echoed there with the bot as sender', async () => {
    const sandbox = await startSandboxForTest({ options: { realKick: realKickPreset } });
    try {
      const other = seedUserIds.other_streamer;
      await subscribe(sandbox, ['chat.message.sent'], other);
      const linked = await sandbox.linkUser('sandbox_bot', ['chat:write']);
      expect(linked.scope).toBe('chat:write');
      const answer = await sandbox.request('POST', '/public/v1/chat', {
        token: linked.access_token,
        body: { type: 'user', broadcaster_user_id: other, content: 'hello from the bot account' },
      });
      expect(answer.json).toEqual(sent);
      const [echo] = await sandbox.receiver.waitFor(1);
      expect(echo?.headers['kick-event-type']).toBe('chat.message.sent');
      // the preset lets payloads drift, so only the fields that keep their values are compared
      expect(echo?.body).toMatchObject({
        message_id: (answer.json as { data: { message_id: string } }).data.message_id,
        content: 'hello from the bot account',
        broadcaster: { username: 'other_streamer' },
        sender: { username: 'sandbox_bot' },
      });
      expect(String((echo?.body as { sender: { user_id: unknown } }).sender.user_id)).toBe(
        String(seedUserIds.sandbox_bot),
      );
    } finally {
      await sandbox.close();
    }
  });
});

describe('real Kick behaviour: deliveries', () => {
  let sandbox: SandboxHarness;
  beforeEach(async () => {
    sandbox = await startSandboxForTest();
  });
  afterEach(() => sandbox.close());

  const metadataChange = () =>
    sandbox.control('POST', '/events/metadata', { broadcaster: streamer, title: 'drifting', categoryId: 15 });

  test('when no drift is switched on, then deliveries are exactly the documented ones, version 1, no extras', async () => {
    await subscribe(sandbox, ['livestream.metadata.updated', 'chat.message.sent']);
    await metadataChange();
    await sandbox.control('POST', '/events/chat', { broadcaster: streamer, sender: 'viewer_alice', content: 'hi' });
    // every delivery is recorded before the trigger answers: these two are all there will be
    const recorded = await sandbox.control<{ eventType: string; faults: string[] }[]>('GET', '/deliveries');
    expect(recorded.map((delivery) => [delivery.eventType, delivery.faults])).toEqual([
      ['livestream.metadata.updated', []],
      ['chat.message.sent', []],
    ]);
    const deliveries = await sandbox.receiver.waitFor(2);
    expect(deliveries.map((delivery) => header(delivery, 'kick-event-version'))).toEqual(['1', '1']);
    expect(deliveries[0]?.body).toEqual({
      broadcaster: expect.objectContaining({ user_id: streamer, identity: null }),
      metadata: {
        title: 'drifting',
        language: 'en',
        has_mature_content: false,
        category: { id: 15, name: 'Just Chatting', thumbnail: expect.any(String) },
      },
    });
    expect(Object.keys(deliveries[1]?.body as object)).toEqual([
      'message_id',
      'broadcaster',
      'sender',
      'content',
      'emotes',
      'created_at',
    ]);
  });

  test('when every body drift is on (options), then null objects, unknown fields, missing timestamps and string ids, still correctly signed', async () => {
    await sandbox.close();
    sandbox = await startSandboxForTest({
      options: {
        realKick: { driftNullObjects: 1, driftUnknownFields: 1, driftMissingOptional: 1, driftIdsAsStrings: 1 },
      },
    });
    await subscribe(sandbox, ['livestream.metadata.updated', 'chat.message.sent']);
    await metadataChange();
    await sandbox.control('POST', '/events/chat', { broadcaster: streamer, sender: 'viewer_alice', content: 'hi' });
    const [metadata, chat] = await sandbox.receiver.waitFor(2);
    const publicKey = await publicKeyOf(sandbox);
    expect(verifies(publicKey, metadata)).toBe(true);
    expect(verifies(publicKey, chat)).toBe(true);
    expect(metadata?.body).toMatchObject({
      broadcaster: { user_id: String(streamer), sandbox_unknown_user_field: 'drift' },
      metadata: { category: null, Category: null },
      sandbox_unknown_field: { added_by: 'kick-sandbox', version: 2 },
    });
    expect(chat?.body).toMatchObject({
      emotes: null,
      replies_to: null,
      sender: { user_id: String(seedUserIds.viewer_alice), identity: { badges: null } },
    });
    expect(chat?.body).not.toHaveProperty('created_at');
    const recorded = await sandbox.control<{ faults: string[] }[]>('GET', '/deliveries?eventType=chat.message.sent');
    expect(recorded.at(-1)?.faults).toEqual([
      'drift:nullObjects',
      'drift:unknownFields',
      'drift:missingOptional',
      'drift:idsAsStrings',
    ]);
  });

  test("when the identity drift is on, then the chat sender's identity arrives null", async () => {
    await subscribe(sandbox, ['chat.message.sent']);
    await sandbox.realKick({ driftNullIdentity: 1 });
    await sandbox.control('POST', '/events/chat', { broadcaster: streamer, sender: 'viewer_alice', content: 'hi' });
    const [chat] = await sandbox.receiver.waitFor(1);
    expect((chat?.body as { sender: { identity: unknown } }).sender.identity).toBeNull();
  });

  test('when unknown types and versions drift in, then each delivery is followed by a version-2 copy and an unknown event, all signed', async () => {
    const [subscription] = await subscribe(sandbox, ['channel.followed']);
    await sandbox.realKick({ driftUnknownVersions: 1, driftUnknownEvents: 1 });
    await sandbox.control('POST', '/events/follow', { broadcaster: streamer, follower: 'new_fan' });
    const deliveries = await sandbox.receiver.waitFor(3);
    expect(deliveries.map((d) => [header(d, 'kick-event-type'), header(d, 'kick-event-version')])).toEqual([
      ['channel.followed', '1'],
      ['channel.followed', '2'],
      ['channel.sandbox_unknown_event', '1'],
    ]);
    expect(new Set(deliveries.map((d) => header(d, 'kick-event-message-id'))).size).toBe(3);
    expect(deliveries.map((d) => header(d, 'kick-event-subscription-id'))).toEqual(
      Array(3).fill(subscription?.subscription_id),
    );
    expect(deliveries[1]?.body).toEqual(deliveries[0]?.body);
    expect(deliveries[2]?.body).toMatchObject({
      broadcaster: { user_id: streamer },
      sandbox_note: 'an event type Kick has not documented',
    });
    const publicKey = await publicKeyOf(sandbox);
    expect(deliveries.every((delivery) => verifies(publicKey, delivery))).toBe(true);
  });

  test('when the preset is on with a seed, then the same events drift the same way after the seed is set again', async () => {
    await subscribe(sandbox, ['channel.followed']);
    const settings = await sandbox.realKickPreset();
    expect(settings).toEqual({ ...documentedKick, ...realKickPreset });
    const run = async () => {
      await sandbox.realKick({ seed: 99 });
      const from = (await sandbox.control<{ seq: number }[]>('GET', '/deliveries?limit=1')).at(-1)?.seq ?? 0;
      for (const follower of ['fan_a', 'fan_b', 'fan_c', 'fan_d', 'fan_e', 'fan_f']) {
        await sandbox.control('POST', '/events/follow', { broadcaster: streamer, follower });
      }
      const made = await sandbox.control<{ eventType: string; eventVersion: number; faults: string[] }[]>(
        'GET',
        `/deliveries?afterSeq=${from}`,
      );
      return made.map((delivery) => [delivery.eventType, delivery.eventVersion, delivery.faults]);
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(first.some(([, , faults]) => (faults as string[]).length > 0)).toBe(true);
  });

  test('when a channel’s subscriptions are dropped, then GET no longer lists them and nothing is delivered, other channels keep theirs', async () => {
    await subscribe(sandbox, ['chat.message.sent', 'channel.followed']);
    await subscribe(sandbox, ['chat.message.sent'], seedUserIds.other_streamer);
    expect(await sandbox.dropSubscriptions({ broadcasterUserId: streamer })).toBe(2);
    expect((await listSubscriptions(sandbox)).map((s) => s.broadcaster_user_id)).toEqual([seedUserIds.other_streamer]);
    const answer = await sandbox.control<{ deliveries: unknown[] }>('POST', '/events/follow', {
      broadcaster: streamer,
      follower: 'new_fan',
    });
    expect(answer.deliveries).toEqual([]);
    expect(await sandbox.dropSubscriptions()).toBe(1);
    expect(await listSubscriptions(sandbox)).toEqual([]);
  });

  test('when subscriptions drop after 2 deliveries, then the third event is not delivered and the subscription is gone', async () => {
    await subscribe(sandbox, ['channel.followed', 'chat.message.sent']);
    await sandbox.realKick({ dropSubscriptionsAfterDeliveries: 2 });
    for (const follower of ['fan_a', 'fan_b', 'fan_c']) {
      await sandbox.control('POST', '/events/follow', { broadcaster: streamer, follower });
    }
    // every delivery is recorded before the trigger answers: the third follow found no subscription
    const recorded = await sandbox.control<{ eventType: string }[]>('GET', '/deliveries');
    expect(recorded.map((delivery) => delivery.eventType)).toEqual(['channel.followed', 'channel.followed']);
    await sandbox.receiver.waitFor(2);
    expect((await listSubscriptions(sandbox)).map((s) => s.event)).toEqual(['chat.message.sent']);
  });
});

describe('real Kick behaviour: kicks.gifted and channel.reward.redemption.updated', () => {
  test('when subscribed and triggered, then the §8.10 shapes are delivered', async () => {
    const sandbox = await startSandboxForTest();
    try {
      const results = await subscribe(sandbox, ['kicks.gifted', 'channel.reward.redemption.updated']);
      expect(results.map((result) => result.error)).toEqual(['', '']);
      const shortUser = (userId: number, username: string) => ({
        user_id: userId,
        username,
        is_verified: false,
        profile_picture: `http://localhost:3100/sandbox/images/user-${userId}.svg`,
        channel_slug: username,
      });
      const streamerUser = { ...shortUser(streamer, 'sandbox_streamer'), is_verified: true };
      await sandbox.control('POST', '/events/kicks-gifted', {
        broadcaster: streamer,
        sender: 'viewer_alice',
        amount: 100,
        name: 'Full Send',
        type: 'LEVEL_UP',
        tier: 'MID',
        message: 'gg',
        pinnedTimeSeconds: 600,
      });
      const redemption = await sandbox.control<{ redemptionId: string; rewardId: string }>(
        'POST',
        '/events/reward-redemption',
        {
          broadcaster: streamer,
          redeemer: 'viewer_bob',
          userInput: 'play wonderwall',
          reward: { title: 'Song request', cost: 500, description: 'Pick the next song' },
        },
      );
      await sandbox.control('POST', '/events/reward-redemption', {
        broadcaster: streamer,
        redeemer: 'viewer_bob',
        id: redemption.redemptionId,
        status: 'accepted',
        reward: { id: redemption.rewardId, title: 'Song request', cost: 500 },
      });
      const [gift, pending, accepted] = await sandbox.receiver.waitFor(3);
      expect(header(gift, 'kick-event-type')).toBe('kicks.gifted');
      expect(gift?.body).toEqual({
        broadcaster: streamerUser,
        sender: shortUser(seedUserIds.viewer_alice, 'viewer_alice'),
        gift: {
          amount: 100,
          name: 'Full Send',
          type: 'LEVEL_UP',
          tier: 'MID',
          message: 'gg',
          pinned_time_seconds: 600,
        },
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      });
      expect(header(pending, 'kick-event-type')).toBe('channel.reward.redemption.updated');
      expect(pending?.body).toEqual({
        id: redemption.redemptionId,
        user_input: 'play wonderwall',
        status: 'pending',
        redeemed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        reward: { id: redemption.rewardId, title: 'Song request', cost: 500, description: 'Pick the next song' },
        redeemer: shortUser(seedUserIds.viewer_bob, 'viewer_bob'),
        broadcaster: streamerUser,
      });
      expect(accepted?.body).toMatchObject({ id: redemption.redemptionId, status: 'accepted', user_input: '' });
    } finally {
      await sandbox.close();
    }
  });
});

describe('real Kick control API', () => {
  let sandbox: SandboxHarness;
  beforeAll(async () => {
    sandbox = await startSandboxForTest();
  });
  afterAll(() => sandbox.close());

  test.each([
    [{ botChat: 'sometimes' }],
    [{ chatRateLimitRate: 1.5 }],
    [{ chatNotSentNext: -1 }],
    [{ driftNullObjects: 'yes' }],
    [{ dropSubscriptionsAfterDeliveries: 0 }],
    [{ unknownSwitch: true }],
  ])('when PATCH /real-kick gets %j, then 400 and nothing changes', async (body) => {
    const answer = await sandbox.request('PATCH', '/sandbox/api/real-kick', { body });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ success: false });
    expect(await sandbox.control('GET', '/real-kick')).toEqual(documentedKick);
  });

  test('when POST /subscriptions/drop gets a bad body, then 400', async () => {
    for (const body of [{ broadcasterUserId: 'x' }, { channel: 1 }]) {
      expect((await sandbox.request('POST', '/sandbox/api/subscriptions/drop', { body })).status).toBe(400);
    }
  });

  test('when an event trigger gets a bad body, then 400', async () => {
    const gift = await sandbox.request('POST', '/sandbox/api/events/kicks-gifted', {
      body: { broadcaster: streamer, sender: 'viewer_alice', amount: 0 },
    });
    expect(gift.status).toBe(400);
    const redemption = await sandbox.request('POST', '/sandbox/api/events/reward-redemption', {
      body: { broadcaster: streamer, redeemer: 'viewer_bob', status: 'maybe', reward: { title: 't', cost: 1 } },
    });
    expect(redemption.status).toBe(400);
  });

  test('when the preset is applied and reset, then the settings answer each time', async () => {
    expect(await sandbox.realKickPreset()).toEqual({ ...documentedKick, ...realKickPreset });
    expect(await sandbox.documentedKick()).toEqual(documentedKick);
  });

  test('when the real Kick page is opened, then it shows every switch with its value and links back', async () => {
    await sandbox.realKick({ botChat: 'channel-not-found', chatRateLimitNext: 3 });
    const page = await sandbox.request('GET', '/sandbox/real-kick');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<option value="channel-not-found" selected>/);
    expect(page.text).toMatch(/id="setting-chatRateLimitNext"[^>]*value="3"/);
    for (const key of Object.keys(documentedKick)) expect(page.text).toContain(`id="setting-${key}"`);
    expect(page.text).toContain('href="/"');
    expect((await sandbox.request('GET', '/')).text).toContain('href="/sandbox/real-kick"');
    await sandbox.documentedKick();
  });
});
