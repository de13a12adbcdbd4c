import { randomUUID } from 'node:crypto';
import { eventually } from '@kickstand/platform/testing';
import {
  BotControlAction,
  ChatOrigin,
  ChatSubscriptionState,
  KickAccountChangeKind,
  UserChangeKind,
  UserRole,
} from '@kickstand/proto';
import { aKickName, startStack, type Stack } from './testing/test-harness';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack.close();
});

interface Streamer {
  userId: string;
  kickName: string;
  broadcasterId: string;
}

async function aLinkedStreamer(): Promise<Streamer> {
  const userId = `u-${randomUUID()}`;
  const kickName = aKickName();
  const linked = await stack.link(userId, kickName);
  expect(linked.location).toBe('/dashboard?kick_linked=true');
  return { userId, kickName, broadcasterId: String(await stack.kickUserId(kickName)) };
}

const chatStatesOf = (userId: string) =>
  stack.recorded
    .publishedWithKeys('chat.subscription')
    .filter(({ key }) => key === userId)
    .map(({ message }) => message);

const sentFor = (broadcasterId: string) =>
  stack.recorded
    .publishedWithKeys('chat.sent')
    .filter(({ key }) => key === broadcasterId)
    .map(({ message }) => message);

interface SandboxChatLine {
  messageId: string;
  content: string;
  type: string;
  senderUsername: string;
  replyToMessageId: string | null;
}

const chatAtKick = (broadcasterId: string, type = 'bot') =>
  stack.control<SandboxChatLine[]>('GET', `/chat?broadcasterUserId=${broadcasterId}&type=${type}`);

const control = (userId: string, action: BotControlAction, broadcasterUserId = '0') =>
  stack.platform.bus.publish('bot.control', userId, {
    eventId: randomUUID(),
    userId,
    broadcasterUserId,
    action,
    requestId: `req-${randomUUID()}`,
  });

function chatSend(streamer: Streamer, content: string, extra: Record<string, unknown> = {}) {
  return {
    eventId: randomUUID(),
    idempotencyKey: `reply:${randomUUID()}`,
    broadcasterUserId: streamer.broadcasterId,
    ownerUserId: streamer.userId,
    content,
    origin: ChatOrigin.COMMAND,
    ...extra,
  };
}

const oauthTokenCalls = () =>
  stack.control<{ body: { grant_type?: string } | null }[]>('GET', '/calls?endpoint=oauth.token');
const refreshCalls = async () =>
  (await oauthTokenCalls()).filter((call) => call.body?.grant_type === 'refresh_token').length;

describe('bot.control', () => {
  test('when START arrives twice, then the channel has exactly one subscription per bot event at Kick and each START is answered ACTIVE with its request id', async () => {
    const streamer = await aLinkedStreamer();

    await control(streamer.userId, BotControlAction.START);
    await control(streamer.userId, BotControlAction.START);

    await eventually(() => expect(chatStatesOf(streamer.userId)).toHaveLength(2));
    const states = chatStatesOf(streamer.userId);
    expect(states.map((state) => state.state)).toEqual([ChatSubscriptionState.ACTIVE, ChatSubscriptionState.ACTIVE]);
    expect(states.every((state) => state.requestId.startsWith('req-'))).toBe(true);
    expect(states[0]?.broadcasterUserId).toBe(streamer.broadcasterId);
    const atKick = await stack.subscriptionsAtKick(Number(streamer.broadcasterId));
    expect(atKick.map((subscription) => subscription.event)).toEqual([
      'chat.message.sent',
      'channel.followed',
      'channel.subscription.new',
      'channel.subscription.renewal',
      'channel.subscription.gifts',
      'kicks.gifted',
      'channel.reward.redemption.updated',
      'livestream.status.updated',
      'livestream.metadata.updated',
    ]);
  });

  test('when the channel already has duplicate chat subscriptions, then START leaves exactly one', async () => {
    const streamer = await aLinkedStreamer();
    await stack.subscribeAtKick(Number(streamer.broadcasterId), ['chat.message.sent']);
    await stack.subscribeAtKick(Number(streamer.broadcasterId), ['chat.message.sent']);

    await control(streamer.userId, BotControlAction.START);

    await eventually(() => expect(chatStatesOf(streamer.userId)).toHaveLength(1));
    const atKick = await stack.subscriptionsAtKick(Number(streamer.broadcasterId));
    expect(atKick.filter((subscription) => subscription.event === 'chat.message.sent')).toHaveLength(1);
  });

  test('when STOP arrives, then the bot subscriptions are deleted at Kick (other events stay) and INACTIVE is answered', async () => {
    const streamer = await aLinkedStreamer();
    await stack.subscribeAtKick(Number(streamer.broadcasterId), ['moderation.banned']);
    await control(streamer.userId, BotControlAction.START);
    await eventually(() => expect(chatStatesOf(streamer.userId)).toHaveLength(1));

    await control(streamer.userId, BotControlAction.STOP);

    await eventually(() => expect(chatStatesOf(streamer.userId)).toHaveLength(2));
    expect(chatStatesOf(streamer.userId)[1]?.state).toBe(ChatSubscriptionState.INACTIVE);
    const atKick = await stack.subscriptionsAtKick(Number(streamer.broadcasterId));
    expect(atKick.map((subscription) => subscription.event)).toEqual(['moderation.banned']);
  });

  test('when START arrives for a user without a link, then FAILED "No Kick account is linked"', async () => {
    const userId = `u-${randomUUID()}`;

    await control(userId, BotControlAction.START);

    await eventually(() => expect(chatStatesOf(userId)).toHaveLength(1));
    expect(chatStatesOf(userId)[0]).toMatchObject({
      state: ChatSubscriptionState.FAILED,
      error: 'No Kick account is linked',
      broadcasterUserId: '0',
    });
  });

  test("when Kick refuses the subscription, then FAILED with Kick's reason in words a streamer understands", async () => {
    const streamer = await aLinkedStreamer();
    await stack.control('PATCH', '/app', { subscriptionLimit: 0 });
    try {
      await control(streamer.userId, BotControlAction.START);

      await eventually(() => expect(chatStatesOf(streamer.userId)).toHaveLength(1));
      expect(chatStatesOf(streamer.userId)[0]).toMatchObject({
        state: ChatSubscriptionState.FAILED,
        error: 'Kick refused the chat subscription: event subscription limit reached',
      });
    } finally {
      await stack.control('PATCH', '/app', { subscriptionLimit: 1000 });
    }
  });
});

describe('chat.send', () => {
  test('when the same chat.send is delivered twice, then Kick gets one message and one chat.sent is published', async () => {
    const streamer = await aLinkedStreamer();
    const receivedAt = { seconds: BigInt(Math.floor(stack.clock.now().getTime() / 1000)), nanos: 0 };
    const message = chatSend(streamer, 'Only once, please', { sourceReceivedAt: receivedAt });

    await stack.platform.bus.publish('chat.send', streamer.broadcasterId, message);
    await stack.platform.bus.publish('chat.send', streamer.broadcasterId, { ...message, eventId: randomUUID() });

    await eventually(() => expect(sentFor(streamer.broadcasterId)).toHaveLength(1));
    // a moment for a second post to show up, if there were one
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = await chatAtKick(streamer.broadcasterId);
    expect(lines.map((line) => line.content)).toEqual(['Only once, please']);
    const sent = sentFor(streamer.broadcasterId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      idempotencyKey: message.idempotencyKey,
      broadcasterUserId: streamer.broadcasterId,
      ownerUserId: streamer.userId,
      isSent: true,
      error: '',
      messageId: lines[0]?.messageId,
      content: 'Only once, please',
      origin: ChatOrigin.COMMAND,
      sourceReceivedAt: receivedAt,
    });
    expect(sent[0]?.sentAt).toBeDefined();
  });

  test('when the line replies to a chat message, then Kick gets reply_to_message_id and chat.sent carries the reply fields', async () => {
    const streamer = await aLinkedStreamer();
    const asked = await stack.control<{ message: { messageId: string } }>('POST', '/events/chat', {
      broadcaster: streamer.kickName,
      sender: 'viewer_bob',
      content: '$hello',
    });

    await stack.platform.bus.publish(
      'chat.send',
      streamer.broadcasterId,
      chatSend(streamer, 'Hi viewer_bob', {
        replyToMessageId: asked.message.messageId,
        replyToUsername: 'viewer_bob',
      }),
    );

    await eventually(() => expect(sentFor(streamer.broadcasterId)).toHaveLength(1));
    expect(sentFor(streamer.broadcasterId)[0]).toMatchObject({
      isSent: true,
      replyToMessageId: asked.message.messageId,
      replyToUsername: 'viewer_bob',
    });
    const lines = await chatAtKick(streamer.broadcasterId);
    expect(lines[0]).toMatchObject({ content: 'Hi viewer_bob', replyToMessageId: asked.message.messageId });
  });

  test('when the content is longer than 500 characters, then it is cut to 500', async () => {
    const streamer = await aLinkedStreamer();

    await stack.platform.bus.publish('chat.send', streamer.broadcasterId, chatSend(streamer, 'é'.repeat(520)));

    await eventually(() => expect(sentFor(streamer.broadcasterId)).toHaveLength(1));
    expect(sentFor(streamer.broadcasterId)[0]?.isSent).toBe(true);
    expect((await chatAtKick(streamer.broadcasterId))[0]?.content).toBe('é'.repeat(500));
  });

  test('when nobody linked the channel, then chat.sent says is_sent false with the reason', async () => {
    const streamer = { userId: `u-${randomUUID()}`, kickName: 'nobody', broadcasterId: '99999991' };

    await stack.platform.bus.publish('chat.send', streamer.broadcasterId, chatSend(streamer, 'hello?'));

    await eventually(() => expect(sentFor(streamer.broadcasterId)).toHaveLength(1));
    expect(sentFor(streamer.broadcasterId)[0]).toMatchObject({
      isSent: false,
      error: 'No Kick account is linked',
      messageId: '',
    });
  });

  test('when Kick refuses type "bot" with Channel not found, then the line goes out as the streamer and the channel stays on "user"', async () => {
    const streamer = await aLinkedStreamer();
    await stack.control('PATCH', '/app', { isBotEnabled: false });
    try {
      await stack.platform.bus.publish('chat.send', streamer.broadcasterId, chatSend(streamer, 'as the bot'));

      await eventually(() => expect(sentFor(streamer.broadcasterId)).toHaveLength(1));
      expect(sentFor(streamer.broadcasterId)[0]).toMatchObject({ isSent: true, error: '' });
      expect((await chatAtKick(streamer.broadcasterId, 'user')).map((line) => line.content)).toEqual(['as the bot']);
      const answer = await stack.api<{ data: Record<string, unknown> }>('GET', '/api/platform/kick/chat-sender', {
        token: stack.tokenFor(streamer.userId),
      });
      expect(answer.json.data).toMatchObject({
        kind: 'streamer-user',
        kickUsername: streamer.kickName,
        isFallback: true,
        botRefusal: 'Channel not found',
      });
    } finally {
      await stack.control('PATCH', '/app', { isBotEnabled: true });
    }
  });
});

describe('user tokens', () => {
  test('when the access token has less than 5 minutes left, then it is refreshed before use and the newest refresh token is kept', async () => {
    const streamer = await aLinkedStreamer();
    const refreshesBefore = await refreshCalls();
    stack.clock.advance((7200 - 240) * 1000);

    await stack.platform.bus.publish('chat.send', streamer.broadcasterId, chatSend(streamer, 'fresh token'));

    await eventually(() => expect(sentFor(streamer.broadcasterId)).toHaveLength(1));
    expect(sentFor(streamer.broadcasterId)[0]?.isSent).toBe(true);
    expect(await refreshCalls()).toBe(refreshesBefore + 1);
    // the refresh token was rotated: the one the link started with is spent
    const refreshTokens = await stack.control<{ kind: string; rotatedAt: string | null; isActive: boolean }[]>(
      'GET',
      `/tokens?userId=${streamer.broadcasterId}&kind=refresh`,
    );
    expect(refreshTokens).toHaveLength(2);
    expect(refreshTokens[0]?.rotatedAt).not.toBeNull();
    expect(refreshTokens[1]?.rotatedAt).toBeNull();

    // and the next use needs no refresh
    await stack.platform.bus.publish('chat.send', streamer.broadcasterId, chatSend(streamer, 'still fresh'));
    await eventually(() => expect(sentFor(streamer.broadcasterId)).toHaveLength(2));
    expect(await refreshCalls()).toBe(refreshesBefore + 1);
  });

  test('when Kick answers 401 (the token expired early), then the token is refreshed once and the call repeated', async () => {
    const streamer = await aLinkedStreamer();
    await stack.control('POST', '/tokens/expire', { userId: Number(streamer.broadcasterId), kind: 'access' });
    const refreshesBefore = await refreshCalls();

    await stack.platform.bus.publish('chat.send', streamer.broadcasterId, chatSend(streamer, 'after a 401'));

    await eventually(() => expect(sentFor(streamer.broadcasterId)).toHaveLength(1));
    expect(sentFor(streamer.broadcasterId)[0]?.isSent).toBe(true);
    expect(await refreshCalls()).toBe(refreshesBefore + 1);
    expect((await chatAtKick(streamer.broadcasterId)).map((line) => line.content)).toEqual(['after a 401']);
  });

  test('when Kick refuses the refresh token, then NEEDS_RELINK and chat.subscription FAILED are published and the line is not sent', async () => {
    const streamer = await aLinkedStreamer();
    await stack.control('POST', '/tokens/invalidate', { userId: Number(streamer.broadcasterId) });

    await stack.platform.bus.publish('chat.send', streamer.broadcasterId, chatSend(streamer, 'into the void'));

    await eventually(() => expect(sentFor(streamer.broadcasterId)).toHaveLength(1));
    expect(sentFor(streamer.broadcasterId)[0]).toMatchObject({
      isSent: false,
      error: 'Your Kick account needs to be linked again',
    });
    const account = stack.recorded
      .publishedWithKeys('kick.account')
      .filter(({ key }) => key === streamer.userId)
      .map(({ message }) => message.kind);
    expect(account).toEqual([KickAccountChangeKind.LINKED, KickAccountChangeKind.NEEDS_RELINK]);
    expect(chatStatesOf(streamer.userId)).toEqual([
      expect.objectContaining({
        state: ChatSubscriptionState.FAILED,
        error: 'Your Kick account needs to be linked again',
        broadcasterUserId: streamer.broadcasterId,
      }),
    ]);
    const status = await stack.api<{ data: { hasKickAccount: boolean; needsRelink: boolean } }>(
      'GET',
      '/api/platform/kick/status',
      { token: stack.tokenFor(streamer.userId) },
    );
    expect(status.json.data).toMatchObject({ hasKickAccount: true, needsRelink: true });

    // the bot cannot start until the streamer links again
    await control(streamer.userId, BotControlAction.START);
    await eventually(() => expect(chatStatesOf(streamer.userId)).toHaveLength(2));
    expect(chatStatesOf(streamer.userId)[1]).toMatchObject({
      state: ChatSubscriptionState.FAILED,
      error: 'Your Kick account needs to be linked again',
    });

    // linking again makes it work again
    expect((await stack.link(streamer.userId, streamer.kickName)).location).toBe('/dashboard?kick_linked=true');
    await stack.platform.bus.publish('chat.send', streamer.broadcasterId, chatSend(streamer, 'back again'));
    await eventually(() => expect(sentFor(streamer.broadcasterId)).toHaveLength(2));
    expect(sentFor(streamer.broadcasterId)[1]?.isSent).toBe(true);
  });

  test('when START finds a refresh token Kick refuses, then START is answered FAILED with the relink message', async () => {
    const streamer = await aLinkedStreamer();
    await stack.control('POST', '/tokens/invalidate', { userId: Number(streamer.broadcasterId), kind: 'refresh' });
    stack.clock.advance((7200 - 60) * 1000);

    await control(streamer.userId, BotControlAction.START);

    await eventually(() =>
      expect(chatStatesOf(streamer.userId).some((state) => state.requestId.startsWith('req-'))).toBe(true),
    );
    const answered = chatStatesOf(streamer.userId).find((state) => state.requestId.startsWith('req-'));
    expect(answered).toMatchObject({
      state: ChatSubscriptionState.FAILED,
      error: 'Your Kick account needs to be linked again',
    });
    expect(await stack.subscriptionsAtKick(Number(streamer.broadcasterId))).toEqual([]);
  });
});

describe('user.changed', () => {
  test('when a linked user is deleted, then the Kick link is undone', async () => {
    const streamer = await aLinkedStreamer();
    await stack.subscribeAtKick(Number(streamer.broadcasterId), ['chat.message.sent']);

    await stack.platform.bus.publish('user.changed', streamer.userId, {
      eventId: randomUUID(),
      userId: streamer.userId,
      kind: UserChangeKind.DELETED,
      username: 'gone',
      role: UserRole.USER,
      isActive: false,
    });

    await eventually(async () => {
      const kinds = stack.recorded
        .publishedWithKeys('kick.account')
        .filter(({ key }) => key === streamer.userId)
        .map(({ message }) => message.kind);
      expect(kinds).toEqual([KickAccountChangeKind.LINKED, KickAccountChangeKind.UNLINKED]);
    });
    expect(await stack.subscriptionsAtKick(Number(streamer.broadcasterId))).toEqual([]);
  });
});
