import { randomUUID } from 'node:crypto';
import type { TopicMessage } from '@kickstand/platform/bus';
import {
  createFakeClock,
  createTestPlatform,
  eventually,
  type FakeClock,
  type TestPlatform,
} from '@kickstand/platform/testing';
import { ChatOrigin, timestampFromDate } from '@kickstand/proto';
import type { BotAccountDirectory, BotAccountView } from './bot-account';
import {
  botRetryAfterMs,
  claimWindowMs,
  createChatSender,
  defaultReplyPolicy,
  createOwnLines,
  quotaMessage,
  queueFullMessage,
  senderStateCacheMs,
  tooOldMessage,
  type ChatSender,
  type OwnLines,
} from './chat-sender';
import type { DeliveryHealthReporter, ReplyResult, SenderKind } from './delivery-health';
import type { ChatSentInit, KickLinkPublisher } from './publisher';
import {
  KickApiError,
  KickNotSentError,
  KickUnreachableError,
  type KickChatMessage,
  type KickClient,
  type KickSentChat,
} from './kick-client';
import type { UserTokens } from './kick-tokens';
import {
  createKickLinkRepository,
  retention,
  type KickLinkRepository,
  type LinkDoc,
  type SendClaimDoc,
  type StoredReply,
} from './repository';
import { aNewLink } from './testing/links';

const channel = '4377088';
const ownerUserId = 'u-streamer';
const botKickUserId = '9000001';

/** What POST /chat is answered with, one entry per call, in order; afterwards: posted. */
type Answer = KickSentChat | KickApiError | KickUnreachableError | KickNotSentError;

interface Posted {
  token: string;
  message: KickChatMessage;
}

interface World {
  clock: FakeClock;
  repo: KickLinkRepository;
  sender: ChatSender;
  ownLines: OwnLines;
  posted: Posted[];
  /** Each POST /chat's longest wait for a connection to Kick (sendChat's maxQueueWaitMs), in order. */
  queueWaits: (number | undefined)[];
  answers: Answer[];
  published: ChatSentInit[];
  replies: { channel: string; kind: SenderKind; result: ReplyResult; error?: string }[];
  kickErrors: string[];
  slept: number[];
  botAccount: { view: BotAccountView | null };
  /** While down, publishing chat.sent fails. */
  bus: { isDown: boolean };
  send(content: string, extra?: Record<string, unknown>): Promise<void>;
}

let platform: TestPlatform;
let clock: FakeClock;

beforeEach(async () => {
  clock = createFakeClock(new Date('2026-06-01T12:00:00Z'));
  platform = await createTestPlatform('kick-link', { clock });
});

afterEach(async () => {
  await platform.close();
});

async function aWorld(
  options: {
    mode?: 'auto' | 'bot' | 'user';
    botAccount?: BotAccountView;
    maxQueuedPerChannel?: number;
    /** Replaces the instant fake wait: the test decides when a backoff ends. */
    sleep?: (ms: number) => Promise<void>;
  } = {},
): Promise<World> {
  const repo = createKickLinkRepository(platform.store, { oauthStateSeconds: 600 });
  await repo.createIndexes();
  const link = await repo.links.save(
    ownerUserId,
    aNewLink({ kickUserId: channel, at: clock.now(), scopes: ['chat:write'] }),
  );
  const posted: Posted[] = [];
  const queueWaits: (number | undefined)[] = [];
  const answers: Answer[] = [];
  const published: ChatSentInit[] = [];
  const replies: World['replies'] = [];
  const kickErrors: string[] = [];
  const slept: number[] = [];
  const botAccount = { view: options.botAccount ?? null };
  let nextId = 1;
  const kick = {
    async sendChat(token: string, message: KickChatMessage, sendOptions?: { maxQueueWaitMs?: number }) {
      posted.push({ token, message });
      queueWaits.push(sendOptions?.maxQueueWaitMs);
      const answer = answers.shift() ?? { isSent: true, messageId: `msg-${nextId++}` };
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as KickClient;
  const tokensOf = (prefix: string): UserTokens => ({
    withUserToken: (id, call) => call(`${prefix}:${id}`, link as LinkDoc),
  });
  const botAccounts: BotAccountDirectory = {
    current: async () => botAccount.view,
    knownKickUserId: async () => botAccount.view?.kickUserId ?? null,
    changed: () => undefined,
  };
  const health: DeliveryHealthReporter = {
    deliveryAccepted: () => undefined,
    deliveryRefused: () => undefined,
    deadLettered: () => undefined,
    reply: (broadcasterUserId, kind, result, error) =>
      replies.push({ channel: broadcasterUserId, kind, result, ...(error ? { error } : {}) }),
    kickError: (_channel, message) => kickErrors.push(message),
    subscriptionsChecked: () => undefined,
  };
  const bus = { isDown: false };
  const publisher = {
    chatSent: async (init: ChatSentInit) => {
      if (bus.isDown) throw new Error('the bus is down');
      published.push(init);
    },
  } as unknown as KickLinkPublisher;
  const ownLines = createOwnLines({ repo, clock, botAccounts, botUsername: undefined });
  const sender = createChatSender({
    repo,
    kick,
    userTokens: tokensOf('streamer'),
    botTokens: tokensOf('bot'),
    botAccounts,
    ownLines,
    publisher,
    health,
    clock,
    log: platform.log,
    mode: options.mode ?? 'auto',
    // the wait moves the fake clock instead of the wall clock
    sleep: async (ms) => {
      slept.push(ms);
      await options.sleep?.(ms);
      clock.advance(ms);
    },
    policy: options.maxQueuedPerChannel === undefined ? {} : { maxQueuedPerChannel: options.maxQueuedPerChannel },
    random: () => 1,
  });
  return {
    clock,
    repo,
    sender,
    ownLines,
    posted,
    queueWaits,
    answers,
    published,
    replies,
    kickErrors,
    slept,
    botAccount,
    bus,
    async send(content, extra = {}) {
      await sender.handle({
        eventId: randomUUID(),
        idempotencyKey: `reply:${randomUUID()}`,
        broadcasterUserId: channel,
        ownerUserId,
        content,
        origin: ChatOrigin.COMMAND,
        sourceReceivedAt: timestampFromDate(clock.now()),
        ...extra,
      } as TopicMessage<'chat.send'>);
      await sender.drain();
    },
  };
}

const kinds = (world: World) => world.posted.map((p) => `${p.token} ${p.message.type}`);

describe('who speaks', () => {
  test('when Kick answers 500 to type "bot", then the reply goes out as "user" with the streamer token, the channel remembers it, and "bot" is tried again a day later', async () => {
    const world = await aWorld();
    world.answers.push(new KickApiError(500, 'Internal Server Error'));

    await world.send('first');
    await world.send('second');
    world.clock.advance(botRetryAfterMs + 1000);
    await world.send('a day later');

    expect(kinds(world)).toEqual([
      'streamer:u-streamer bot',
      'streamer:u-streamer user',
      'streamer:u-streamer user',
      'streamer:u-streamer bot',
    ]);
    expect(world.posted[1]?.message).toEqual({
      type: 'user',
      broadcasterUserId: channel,
      content: 'first',
      replyToMessageId: undefined,
    });
    expect(world.published.map((m) => [m.content, m.isSent])).toEqual([
      ['first', true],
      ['second', true],
      ['a day later', true],
    ]);
    expect(world.replies.map((r) => r.kind)).toEqual(['streamer-user', 'streamer-user', 'streamer-bot']);
    // the fallback is the plan on real Kick, not an error: it would mark the channel unhealthy for an hour
    expect(world.kickErrors).toEqual([]);
    expect((await world.repo.senderStates.get(channel))?.botRefusedAt).toBeNull();
  });

  test('when a channel replies again and again, then its sender state is read from the store once per 30 s, and again after a write of its own', async () => {
    const world = await aWorld();
    const reads = jest.spyOn(world.repo.senderStates, 'get');

    await world.send('one');
    await world.send('two');
    world.clock.advance(senderStateCacheMs + 1);
    await world.send('three');
    world.answers.push(new KickApiError(500, 'Internal Server Error'));
    await world.send('four'); // refused as "bot": the state is written, then read again
    await world.send('five');

    expect(reads).toHaveBeenCalledTimes(3);
    expect(kinds(world)).toEqual([
      'streamer:u-streamer bot',
      'streamer:u-streamer bot',
      'streamer:u-streamer bot',
      'streamer:u-streamer bot',
      'streamer:u-streamer user',
      'streamer:u-streamer user',
    ]);
  });

  test('when the dashboard asks during the fallback, then it hears "streamer-user" with Kick\'s refusal and when "bot" is tried again', async () => {
    const world = await aWorld();
    world.answers.push(new KickApiError(400, 'Channel not found'));
    const refusedAt = world.clock.now();

    await world.send('hello');

    const link = await world.repo.links.byUser(ownerUserId);
    expect(await world.sender.describe(link as LinkDoc)).toEqual({
      kind: 'streamer-user',
      kickUsername: 'some_streamer',
      isFallback: true,
      botRefusal: 'Channel not found',
      botRetryAt: new Date(refusedAt.getTime() + botRetryAfterMs).toISOString(),
      lastError: '',
      lastErrorAt: null,
      botAccountUsername: null,
    });
  });

  test('when a bot account is linked, then replies go out as "user" into the channel with the bot account token', async () => {
    const botAccount = { kickUserId: botKickUserId, kickUsername: 'kickstand_bot', linkedAt: '', needsRelink: false };
    const world = await aWorld({ botAccount });

    await world.send('from the bot account', { replyToMessageId: 'm-1' });

    expect(world.posted).toEqual([
      {
        token: 'bot:bot-account',
        message: { type: 'user', broadcasterUserId: channel, content: 'from the bot account', replyToMessageId: 'm-1' },
      },
    ]);
    expect(world.replies).toEqual([{ channel, kind: 'bot-account', result: 'sent' }]);
    const link = await world.repo.links.byUser(ownerUserId);
    expect(await world.sender.describe(link as LinkDoc)).toMatchObject({
      kind: 'bot-account',
      kickUsername: 'kickstand_bot',
      isFallback: false,
      botAccountUsername: 'kickstand_bot',
    });
  });

  test('when KICK_CHAT_SENDER=bot, then a refused "bot" is a failure, not a fallback', async () => {
    const world = await aWorld({ mode: 'bot' });
    world.answers.push(new KickApiError(400, 'Channel not found'));

    await world.send('forced bot');

    expect(kinds(world)).toEqual(['streamer:u-streamer bot']);
    expect(world.published[0]).toMatchObject({ isSent: false, error: 'Kick refused the message: Channel not found' });
  });
});

describe('retries and refusals', () => {
  test('when Kick answers 429, then the reply is retried after a backoff and posted exactly once', async () => {
    const world = await aWorld({ mode: 'user' });
    world.answers.push(new KickApiError(429, 'Too Many Requests'));

    await world.send('patience');

    expect(kinds(world)).toEqual(['streamer:u-streamer user', 'streamer:u-streamer user']);
    expect(world.slept).toEqual([1000]);
    expect(world.published).toHaveLength(1);
    expect(world.published[0]).toMatchObject({ isSent: true, messageId: 'msg-1', content: 'patience' });
  });

  test('when more replies wait in a channel than the queue holds, then the extra one is dropped and counted', async () => {
    let endBackoff: () => void = () => undefined;
    const backoff = new Promise<void>((resolve) => {
      endBackoff = resolve;
    });
    const world = await aWorld({ mode: 'user', maxQueuedPerChannel: 1, sleep: () => backoff });
    world.answers.push(new KickApiError(429, 'Too Many Requests'));
    const message = (content: string) =>
      ({
        eventId: randomUUID(),
        idempotencyKey: `reply:${randomUUID()}`,
        broadcasterUserId: channel,
        ownerUserId,
        content,
        origin: ChatOrigin.COMMAND,
        sourceReceivedAt: timestampFromDate(world.clock.now()),
      }) as TopicMessage<'chat.send'>;

    await world.sender.handle(message('waits'));
    await world.sender.handle(message('no room'));
    endBackoff();
    await world.sender.drain();

    expect(world.published.map((m) => [m.content, m.isSent, m.error])).toEqual([
      ['no room', false, queueFullMessage],
      ['waits', true, ''],
    ]);
    expect(world.replies.map((r) => r.result)).toEqual(['dropped', 'sent']);
  });

  test("when a reply in another channel is posted while one waits here, then the wait still counts against this channel's queue", async () => {
    let endBackoff: () => void = () => undefined;
    const backoff = new Promise<void>((resolve) => {
      endBackoff = resolve;
    });
    const world = await aWorld({ mode: 'user', maxQueuedPerChannel: 1, sleep: () => backoff });
    const otherChannel = '5550001';
    await world.repo.links.save(
      'u-other',
      aNewLink({ kickUserId: otherChannel, kickUsername: 'other_streamer', at: clock.now(), scopes: ['chat:write'] }),
    );
    world.answers.push(new KickApiError(429, 'Too Many Requests'));
    const message = (content: string, broadcasterUserId = channel, owner = ownerUserId) =>
      ({
        eventId: randomUUID(),
        idempotencyKey: `reply:${randomUUID()}`,
        broadcasterUserId,
        ownerUserId: owner,
        content,
        origin: ChatOrigin.COMMAND,
        sourceReceivedAt: timestampFromDate(world.clock.now()),
      }) as TopicMessage<'chat.send'>;

    await world.sender.handle(message('waits'));
    await world.sender.handle(message('elsewhere', otherChannel, 'u-other'));
    await eventually(() => expect(world.published.map((m) => m.content)).toEqual(['elsewhere']));
    await world.sender.handle(message('no room'));
    endBackoff();
    await world.sender.drain();

    expect(world.published.map((m) => [m.content, m.isSent, m.error])).toEqual([
      ['elsewhere', true, ''],
      ['no room', false, queueFullMessage],
      ['waits', true, ''],
    ]);
  });

  test('when nothing waits in the channel, then the claim is stored as posting (no queued → posting write), and a reply behind it is stored queued and taken before its call', async () => {
    let endBackoff: () => void = () => undefined;
    const backoff = new Promise<void>((resolve) => {
      endBackoff = resolve;
    });
    const world = await aWorld({ mode: 'user', sleep: () => backoff });
    const startPosting = jest.spyOn(world.repo.sendClaims, 'startPosting');
    world.answers.push(new KickApiError(429, 'Too Many Requests'));
    const message = (key: string) =>
      ({
        eventId: randomUUID(),
        idempotencyKey: key,
        broadcasterUserId: channel,
        ownerUserId,
        content: key,
        origin: ChatOrigin.COMMAND,
        sourceReceivedAt: timestampFromDate(world.clock.now()),
      }) as TopicMessage<'chat.send'>;

    await world.sender.handle(message('reply:first'));
    await world.sender.handle(message('reply:second'));
    expect((await world.repo.sendClaims.get('reply:first'))?.state).toBe('posting');
    expect((await world.repo.sendClaims.get('reply:first'))?.postingAt).toEqual(world.clock.now());
    expect((await world.repo.sendClaims.get('reply:second'))?.state).toBe('queued');
    endBackoff();
    await world.sender.drain();

    expect(startPosting.mock.calls.map(([key]) => key)).toEqual(['reply:second']);
    expect(world.posted.map((p) => p.message.content)).toEqual(['reply:first', 'reply:first', 'reply:second']);
    expect(world.published.map((m) => [m.content, m.isSent])).toEqual([
      ['reply:first', true],
      ['reply:second', true],
    ]);
    // chat.sent left with each outcome: nothing more is written (see settle)
    expect((await world.repo.sendClaims.get('reply:first'))?.state).toBe('posting');
    expect((await world.repo.sendClaims.get('reply:second'))?.state).toBe('posting');
    expect(await world.repo.sendClaims.get('reply:second')).not.toHaveProperty('reply');
  });

  test('when a reply is settled and chat.sent left, then its claim is not written again and never held the reply', async () => {
    const world = await aWorld({ mode: 'user' });
    const recordOutcome = jest.spyOn(world.repo.sendClaims, 'recordOutcome');
    await world.send('hello', { idempotencyKey: 'reply:settled' });

    const claim = await world.repo.sendClaims.get('reply:settled');
    expect(claim).toEqual({
      _id: 'reply:settled',
      claimedAt: world.clock.now(),
      outcome: null,
      isPublished: false,
      state: 'posting',
      postingAt: world.clock.now(),
    });
    expect(world.published.map((m) => [m.idempotencyKey, m.isSent, m.messageId])).toEqual([
      ['reply:settled', true, 'msg-1'],
    ]);
    expect(recordOutcome).not.toHaveBeenCalled();
  });

  test('when chat.sent cannot be published, then the outcome is stored and the redelivered chat.send publishes it without posting again', async () => {
    const world = await aWorld({ mode: 'user' });
    const message = {
      eventId: randomUUID(),
      idempotencyKey: 'reply:unpublished',
      broadcasterUserId: channel,
      ownerUserId,
      content: 'hello',
      origin: ChatOrigin.COMMAND,
      sourceReceivedAt: timestampFromDate(world.clock.now()),
    } as TopicMessage<'chat.send'>;
    world.bus.isDown = true;
    await world.sender.handle(message);
    await world.sender.drain();
    const claim = await world.repo.sendClaims.get('reply:unpublished');
    expect([claim?.state, claim?.isPublished, claim?.outcome]).toEqual([
      'done',
      false,
      { isSent: true, error: '', messageId: 'msg-1', content: 'hello', sentAt: world.clock.now() },
    ]);

    world.bus.isDown = false;
    await world.sender.handle(message);
    await world.sender.drain();

    expect(world.posted).toHaveLength(1);
    expect(world.published.map((m) => [m.idempotencyKey, m.isSent, m.messageId])).toEqual([
      ['reply:unpublished', true, 'msg-1'],
    ]);
    expect((await world.repo.sendClaims.get('reply:unpublished'))?.isPublished).toBe(true);
  });

  test('when the same chat.send arrives twice, then Kick is called once', async () => {
    const world = await aWorld({ mode: 'user' });
    const message = {
      eventId: randomUUID(),
      idempotencyKey: 'reply:twice',
      broadcasterUserId: channel,
      ownerUserId,
      content: 'once',
      origin: ChatOrigin.COMMAND,
      sourceReceivedAt: timestampFromDate(world.clock.now()),
    } as TopicMessage<'chat.send'>;

    await world.sender.handle(message);
    await world.sender.handle(message);
    await world.sender.drain();

    expect(world.posted).toHaveLength(1);
    expect(world.published).toHaveLength(1);
  });

  test('when Kick does not answer, then the reply is not tried again', async () => {
    const world = await aWorld({ mode: 'user' });
    world.answers.push(new KickUnreachableError('timed out'));

    await world.send('maybe posted');

    expect(world.posted).toHaveLength(1);
    expect(world.published[0]).toMatchObject({
      isSent: false,
      error: 'Kick could not be reached; the message was not confirmed',
    });
    expect(world.replies).toEqual([
      {
        channel,
        kind: 'streamer-user',
        result: 'failed',
        error: 'Kick could not be reached; the message was not confirmed',
      },
    ]);
  });

  test('when the reply is older than 2 minutes, then it is dropped and counted, never posted', async () => {
    const world = await aWorld({ mode: 'user' });
    const receivedAt = new Date(world.clock.now().getTime() - 121_000);

    await world.send('too late', { sourceReceivedAt: timestampFromDate(receivedAt) });

    expect(world.posted).toEqual([]);
    expect(world.published[0]).toMatchObject({ isSent: false, error: tooOldMessage });
    expect(world.replies).toEqual([{ channel, kind: 'streamer-user', result: 'dropped', error: tooOldMessage }]);
  });

  test('when the reply is posted, then it may wait for a connection to Kick only until it is 2 minutes old', async () => {
    const world = await aWorld({ mode: 'user' });
    const receivedAt = new Date(world.clock.now().getTime() - 90_000);

    await world.send('in time', { sourceReceivedAt: timestampFromDate(receivedAt) });

    expect(world.queueWaits).toEqual([30_000]);
    expect(world.published[0]).toMatchObject({ isSent: true });
  });

  test('when Kick is so slow that the reply grows 2 minutes old waiting for a connection, then it is dropped, not failed', async () => {
    const world = await aWorld({ mode: 'user' });
    world.answers.push(
      new KickNotSentError('POST /chat was not sent: it waited 30001 ms for a free connection to Kick'),
    );

    await world.send('never sent');

    expect(world.posted).toHaveLength(1);
    expect(world.published[0]).toMatchObject({ isSent: false, error: tooOldMessage });
    expect(world.replies).toEqual([{ channel, kind: 'streamer-user', result: 'dropped', error: tooOldMessage }]);
    expect(world.kickErrors).toEqual([]);
  });

  test('when retrying would take the reply past 2 minutes, then it is dropped instead of posted late', async () => {
    const world = await aWorld({ mode: 'user' });
    const receivedAt = new Date(world.clock.now().getTime() - 119_500);
    world.answers.push(new KickApiError(503, 'Service Unavailable'));

    await world.send('almost too late', { sourceReceivedAt: timestampFromDate(receivedAt) });

    expect(world.posted).toHaveLength(1);
    expect(world.published[0]).toMatchObject({ isSent: false, error: tooOldMessage });
    expect(world.replies.map((r) => r.result)).toEqual(['dropped']);
  });

  test('when Kick refuses the reply target, then the line is posted once more without it', async () => {
    const world = await aWorld({ mode: 'user' });
    world.answers.push(new KickApiError(400, 'Replied message not found'));
    world.answers.push(new KickApiError(400, 'Replied message not found'));

    await world.send('answer', { replyToMessageId: 'gone' });

    expect(world.posted.map((p) => p.message.replyToMessageId)).toEqual(['gone', undefined]);
    expect(world.published[0]).toMatchObject({
      isSent: false,
      error: 'Kick refused the message: Replied message not found',
    });
  });

  test('when Kick answers is_sent false, then it is a failure with the reason', async () => {
    const world = await aWorld({ mode: 'user' });
    world.answers.push({ isSent: false, messageId: '' });

    await world.send('not sent');

    expect(world.published[0]).toMatchObject({ isSent: false, error: 'Kick did not post the message', messageId: '' });
    expect(world.replies).toEqual([
      { channel, kind: 'streamer-user', result: 'failed', error: 'Kick did not post the message' },
    ]);
  });

  test("when the daily quota is used up, then the streamer reads it in plain words on chat.sent and the sender's state", async () => {
    const world = await aWorld({ mode: 'user' });
    world.answers.push(new KickApiError(400, 'Pusher error: API call failed since (daily) message quota exceeded'));

    await world.send('one too many');

    expect(world.published[0]).toMatchObject({ isSent: false, error: quotaMessage });
    expect(world.kickErrors).toEqual([quotaMessage]);
    const link = await world.repo.links.byUser(ownerUserId);
    expect(await world.sender.describe(link as LinkDoc)).toMatchObject({
      lastError: quotaMessage,
      lastErrorAt: world.clock.now().toISOString(),
    });

    await world.send('next day');
    expect((await world.sender.describe(link as LinkDoc)).lastError).toBe('');
  });
});

describe('own lines', () => {
  const line = (overrides: Partial<Parameters<OwnLines['isOwn']>[0]> = {}) => ({
    broadcasterUserId: channel,
    messageId: 'echo-1',
    content: 'pong',
    senderUserId: channel,
    senderUsername: 'some_streamer',
    ...overrides,
  });

  test('when the echo carries the id Kick returned, then it is ours', async () => {
    const world = await aWorld({ mode: 'user' });
    await world.send('pong');

    expect(await world.ownLines.isOwn(line({ messageId: 'msg-1' }))).toBe(true);
  });

  test('when the line comes from the linked bot account, then it is ours', async () => {
    const botAccount = { kickUserId: botKickUserId, kickUsername: 'kickstand_bot', linkedAt: '', needsRelink: false };
    const world = await aWorld({ botAccount });

    expect(
      await world.ownLines.isOwn(
        line({ messageId: 'unknown', content: '$hello', senderUserId: botKickUserId, senderUsername: 'kickstand_bot' }),
      ),
    ).toBe(true);
  });

  test('when Kick echoes our line under another id, then it is ours once, and the streamer typing the same words later is not', async () => {
    const world = await aWorld({ mode: 'user' });
    await world.send('$ping answered');

    expect(await world.ownLines.isOwn(line({ messageId: 'other-id', content: '$ping answered' }))).toBe(true);
    expect(await world.ownLines.isOwn(line({ messageId: 'typed-id', content: '$ping answered' }))).toBe(false);
  });

  test('when our words come back after a minute under another id, then they are not taken for ours', async () => {
    const world = await aWorld({ mode: 'user' });
    await world.send('late echo');
    world.clock.advance(61_000);

    expect(await world.ownLines.isOwn(line({ messageId: 'other-id', content: 'late echo' }))).toBe(false);
  });

  test('when the bot posts 200 lines a second, then an echo under another id 59 s later is still ours, once', async () => {
    const world = await aWorld({ mode: 'user' });
    const posts = 200 * 60;
    for (let i = 0; i < posts; i++) {
      const handle = world.ownLines.sending(channel, `reply ${i}`);
      world.ownLines.sent(`posted-${i}`, handle);
      world.ownLines.settled(handle);
      world.clock.advance(5);
    }
    world.clock.advance(59_000 - posts * 5);

    expect(await world.ownLines.isOwn(line({ messageId: 'other-id', content: 'reply 0' }))).toBe(true);
    expect(await world.ownLines.isOwn(line({ messageId: 'other-id-2', content: 'reply 0' }))).toBe(false);
    expect(await world.ownLines.isOwn(line({ messageId: 'other-id', content: `reply ${posts - 1}` }))).toBe(true);
  });

  test("when a line posted as the streamer echoes to another instance within its id's 10 minutes, then it is ours; later, then it is the streamer's", async () => {
    const posting = await aWorld({ mode: 'user' });
    await posting.send('posted here');
    await posting.send('posted here too');
    // another instance (or this one after a restart): none of the posting instance's memory, the same store
    const other = await aWorld({ mode: 'user' });
    const echo = (messageId: string) => line({ messageId, content: `echo of ${messageId}` });

    clock.advance(retention.sentMessageSeconds * 1000 - 1000);
    expect(await other.ownLines.isOwn(echo('msg-1'))).toBe(true);
    expect(await other.ownLines.isOwn(echo('typed-by-the-streamer'))).toBe(false);
    clock.advance(2000);
    expect(await other.ownLines.isOwn(echo('msg-2'))).toBe(false);
  });

  test('when Kick returned an id 10 minutes ago, or 10,000 ids since, then a line under it is no longer ours by its id', async () => {
    const world = await aWorld({ mode: 'user' });
    // a sender other than the channel: the store's sent ids (the streamer's own lines) are not asked
    const byViewer = (messageId: string, n: number) =>
      line({ messageId, content: `line ${n}`, senderUserId: `viewer-${n}`, senderUsername: `viewer_${n}` });
    const post = (messageId: string) => {
      const handle = world.ownLines.sending(channel, `posted as ${messageId}`);
      world.ownLines.sent(messageId, handle);
      world.ownLines.settled(handle);
    };
    post('early');
    world.clock.advance(10 * 60_000 - 1);
    post('later');
    expect(await world.ownLines.isOwn(byViewer('early', 1))).toBe(true);
    world.clock.advance(2);
    expect(await world.ownLines.isOwn(byViewer('early', 2))).toBe(false);
    expect(await world.ownLines.isOwn(byViewer('later', 3))).toBe(true);

    for (let i = 0; i < 10_000; i++) post(`id-${i}`);
    expect(await world.ownLines.isOwn(byViewer('later', 4))).toBe(false);
    expect(await world.ownLines.isOwn(byViewer('id-0', 5))).toBe(true);
    expect(await world.ownLines.isOwn(byViewer('id-9999', 6))).toBe(true);
  });

  test("when the streamer types a $command the bot did not post, then it is not the bot's", async () => {
    const world = await aWorld({ mode: 'user' });
    await world.send('something else');

    expect(await world.ownLines.isOwn(line({ messageId: 'typed', content: '$hello' }))).toBe(false);
  });
});

describe('replies that outlive their instance', () => {
  /** What handle() stores before the reply waits in its channel's queue. */
  const aQueuedClaim = (repo: KickLinkRepository, key: string, content: string, extra: Partial<StoredReply> = {}) =>
    repo.sendClaims.claim(key, clock.now(), {
      broadcasterUserId: channel,
      ownerUserId,
      content,
      origin: ChatOrigin.COMMAND,
      sourceReceivedAt: clock.now(),
      occurredAt: clock.now(),
      ...extra,
    });

  test('when kick-link stops with replies waiting, then a new instance posts each of them once', async () => {
    const stopped = await aWorld({ mode: 'user' });
    const receivedAt = clock.now();
    await aQueuedClaim(stopped.repo, 'reply:a', 'first', { replyToMessageId: 'm-1', replyToUsername: 'viewer' });
    await aQueuedClaim(stopped.repo, 'reply:b', 'second');
    clock.advance(6000);

    const fresh = await aWorld({ mode: 'user' });
    fresh.sender.start();
    await fresh.sender.stop();
    await fresh.sender.drain();
    // a later pass and a redelivery of the same chat.send find nothing left to post
    await fresh.sender.recover();
    await fresh.sender.drain();
    await fresh.send('first', { idempotencyKey: 'reply:a' });

    expect(fresh.posted.map((p) => p.message)).toEqual([
      { type: 'user', broadcasterUserId: channel, content: 'first', replyToMessageId: 'm-1' },
      { type: 'user', broadcasterUserId: channel, content: 'second', replyToMessageId: undefined },
    ]);
    expect(fresh.published).toEqual([
      {
        idempotencyKey: 'reply:a',
        broadcasterUserId: channel,
        ownerUserId,
        isSent: true,
        error: '',
        messageId: 'msg-1',
        content: 'first',
        replyToMessageId: 'm-1',
        replyToUsername: 'viewer',
        sentAt: clock.now(),
        origin: ChatOrigin.COMMAND,
        sourceReceivedAt: timestampFromDate(receivedAt),
      },
      expect.objectContaining({ idempotencyKey: 'reply:b', isSent: true, messageId: 'msg-2', content: 'second' }),
    ]);
    // taken (queued → posting, its reply let go) and published: nothing more to write
    expect(await fresh.repo.sendClaims.get('reply:a')).toMatchObject({ state: 'posting', outcome: null });
    expect(await fresh.repo.sendClaims.get('reply:a')).not.toHaveProperty('reply');
  });

  test('when a claim is already posting, then recovery never posts it', async () => {
    const stopped = await aWorld({ mode: 'user' });
    await aQueuedClaim(stopped.repo, 'reply:mid-call', 'maybe posted');
    // the instance died during its call to Kick
    expect(await stopped.repo.sendClaims.startPosting('reply:mid-call', clock.now())).toBe(true);
    clock.advance(6000);

    const fresh = await aWorld({ mode: 'user' });
    await fresh.sender.recover();
    await fresh.sender.drain();

    expect(fresh.posted).toEqual([]);
    expect(fresh.published).toEqual([]);
    expect((await fresh.repo.sendClaims.get('reply:mid-call'))?.state).toBe('posting');
  });

  test('when two instances recover together, then each reply is posted once', async () => {
    const stopped = await aWorld({ mode: 'user' });
    for (const content of ['one', 'two', 'three']) await aQueuedClaim(stopped.repo, `reply:${content}`, content);
    clock.advance(6000);

    const a = await aWorld({ mode: 'user' });
    const b = await aWorld({ mode: 'user' });
    await Promise.all([a.sender.recover(), b.sender.recover()]);
    await Promise.all([a.sender.drain(), b.sender.drain()]);

    const posted = [...a.posted, ...b.posted].map((p) => p.message.content).sort();
    expect(posted).toEqual(['one', 'three', 'two']);
    const published = [...a.published, ...b.published].map((p) => p.idempotencyKey).sort();
    expect(published).toEqual(['reply:one', 'reply:three', 'reply:two']);
  });

  test('when a queued claim is older than 2 minutes, then it is dropped and counted, not posted', async () => {
    const stopped = await aWorld({ mode: 'user' });
    await aQueuedClaim(stopped.repo, 'reply:stale', 'too late');
    clock.advance(121_000);

    const fresh = await aWorld({ mode: 'user' });
    await fresh.sender.recover();
    await fresh.sender.drain();

    expect(fresh.posted).toEqual([]);
    expect(fresh.published).toEqual([
      expect.objectContaining({
        idempotencyKey: 'reply:stale',
        isSent: false,
        error: tooOldMessage,
        content: 'too late',
      }),
    ]);
    expect(fresh.replies).toEqual([{ channel, kind: 'streamer-user', result: 'dropped', error: tooOldMessage }]);
    // taken before it was dropped, so never posted by anyone
    expect((await fresh.repo.sendClaims.get('reply:stale'))?.state).toBe('posting');
  });

  test('when a queued claim is younger than the grace, or was stored without a state, then recovery leaves it', async () => {
    const running = await aWorld({ mode: 'user' });
    await platform.store
      .collection<SendClaimDoc>('chat-send-claims')
      .insertOne({ _id: 'reply:before-states', claimedAt: clock.now(), outcome: null, isPublished: false });
    clock.advance(6000);
    await aQueuedClaim(running.repo, 'reply:just-queued', 'still in its queue');
    clock.advance(1000);

    const other = await aWorld({ mode: 'user' });
    await other.sender.recover();
    await other.sender.drain();

    expect(other.posted).toEqual([]);
    expect((await other.repo.sendClaims.get('reply:just-queued'))?.state).toBe('queued');
  });

  test('when a reply waits in its own instance longer than the grace, then that instance posts it once', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // a queue of two: had recovery queued them a second time, the copies would overflow it
    const world = await aWorld({ mode: 'user', sleep: () => held, maxQueuedPerChannel: 2 });
    world.answers.push(new KickApiError(503, 'Service Unavailable'));
    const first = world.sender.handle({
      eventId: randomUUID(),
      idempotencyKey: 'reply:backing-off',
      broadcasterUserId: channel,
      ownerUserId,
      content: 'backing off',
      origin: ChatOrigin.COMMAND,
      sourceReceivedAt: timestampFromDate(clock.now()),
    } as TopicMessage<'chat.send'>);
    await first;
    await world.sender.handle({
      eventId: randomUUID(),
      idempotencyKey: 'reply:waiting',
      broadcasterUserId: channel,
      ownerUserId,
      content: 'waiting behind it',
      origin: ChatOrigin.COMMAND,
      sourceReceivedAt: timestampFromDate(clock.now()),
    } as TopicMessage<'chat.send'>);
    clock.advance(6000);

    await world.sender.recover();
    release();
    await world.sender.drain();

    expect(world.posted.map((p) => p.message.content)).toEqual(['backing off', 'backing off', 'waiting behind it']);
    expect(world.replies.map((r) => r.result)).toEqual(['sent', 'sent']);
  });
});

describe('copies of a chat.send, and how long their keys are kept', () => {
  /** A command's answer to the line `line`, said at `sentAt`, received by the webhook at `receivedAt`. */
  const answerTo = (line: string, sentAt: Date, receivedAt: Date = sentAt) =>
    ({
      eventId: randomUUID(),
      idempotencyKey: `reply:${line}`,
      broadcasterUserId: channel,
      ownerUserId,
      content: `answer to ${line}`,
      origin: ChatOrigin.COMMAND,
      sourceReceivedAt: timestampFromDate(receivedAt),
      sourceSentAt: timestampFromDate(sentAt),
    }) as TopicMessage<'chat.send'>;
  const handled = async (world: World, message: TopicMessage<'chat.send'>) => {
    await world.sender.handle(message);
    await world.sender.drain();
  };
  const documents = () => platform.store.collection<SendClaimDoc>('chat-send-claims').count({});
  const lastErrorOf = async (world: World) =>
    (await world.sender.describe((await world.repo.links.byUser(ownerUserId)) as LinkDoc)).lastError;

  test('when the claim window is set, then it outlasts the line-age limit, which outlasts the 2-minute age limit plus the 5 minutes a delivery may be off our clock', () => {
    expect(claimWindowMs).toBe(retention.sendClaimSeconds * 1000);
    expect(claimWindowMs).toBe(600_000);
    expect(defaultReplyPolicy.maxLineAgeMs).toBe(480_000);
    expect(claimWindowMs).toBeGreaterThan(defaultReplyPolicy.maxLineAgeMs);
    expect(defaultReplyPolicy.maxLineAgeMs).toBeGreaterThan(defaultReplyPolicy.maxAgeMs + 300_000);
  });

  test('when a reply goes to Kick at once, then it leaves no document, only its key, which is kept 10 minutes', async () => {
    const world = await aWorld({ mode: 'user' });
    const claimedAt = world.clock.now();

    await handled(world, answerTo('kept', claimedAt));

    expect(world.published.map((m) => [m.idempotencyKey, m.isSent])).toEqual([['reply:kept', true]]);
    expect(await documents()).toBe(0);
    world.clock.advance(claimWindowMs);
    expect(await world.repo.sendClaims.get('reply:kept')).toEqual({
      _id: 'reply:kept',
      claimedAt,
      outcome: null,
      isPublished: false,
      state: 'posting',
      postingAt: claimedAt,
    });
    world.clock.advance(1);
    expect(await world.repo.sendClaims.get('reply:kept')).toBeNull();
  });

  test('when a copy comes after its key expired, received anew (a replayed dead letter), then its own time keeps it from Kick and from a second chat.sent', async () => {
    const world = await aWorld({ mode: 'user' });
    const saidAt = world.clock.now();
    await handled(world, answerTo('replayed', saidAt));
    world.clock.advance(claimWindowMs + 1000);

    await handled(world, answerTo('replayed', saidAt, world.clock.now()));

    expect(world.posted.map((p) => p.message.content)).toEqual(['answer to replayed']);
    expect(world.published.map((m) => [m.idempotencyKey, m.isSent])).toEqual([['reply:replayed', true]]);
    expect(world.replies.map((r) => r.result)).toEqual(['sent']);
    expect(await lastErrorOf(world)).toBe('');
    // nothing was claimed for it either
    expect(await world.repo.sendClaims.get('reply:replayed')).toBeNull();
  });

  test('when a copy comes within the window with a fresh receive time, then its key stops it: Kick is called once, one chat.sent', async () => {
    const world = await aWorld({ mode: 'user' });
    const saidAt = world.clock.now();
    await handled(world, answerTo('twice', saidAt));
    world.clock.advance(claimWindowMs - 1000);

    await handled(world, answerTo('twice', saidAt, world.clock.now()));

    expect(world.posted).toHaveLength(1);
    expect(world.published.map((m) => [m.idempotencyKey, m.isSent])).toEqual([['reply:twice', true]]);
  });

  test("when a line said 6 minutes ago by Kick's clock is received just now (Kick's clock behind ours), then it is answered", async () => {
    const world = await aWorld({ mode: 'user' });
    const saidAt = new Date(world.clock.now().getTime() - 360_000);

    await handled(world, answerTo('behind', saidAt, world.clock.now()));

    expect(world.posted.map((p) => p.message.content)).toEqual(['answer to behind']);
    expect(world.published.map((m) => [m.idempotencyKey, m.isSent])).toEqual([['reply:behind', true]]);
  });

  test('when a line said over 8 minutes ago is received just now, then its answer is dropped as too old, reported once, and its copy is not reported again', async () => {
    const world = await aWorld({ mode: 'user' });
    const saidAt = new Date(world.clock.now().getTime() - 480_001);

    await handled(world, answerTo('late', saidAt, world.clock.now()));
    world.clock.advance(60_000);
    await handled(world, answerTo('late', saidAt, world.clock.now()));

    expect(world.posted).toEqual([]);
    expect(world.published.map((m) => [m.idempotencyKey, m.isSent, m.error])).toEqual([
      ['reply:late', false, tooOldMessage],
    ]);
    expect(world.replies).toEqual([{ channel, kind: 'streamer-user', result: 'dropped', error: tooOldMessage }]);
    expect(await lastErrorOf(world)).toBe(tooOldMessage);
  });

  test('when a chat.send is older than the claim window by its own time, then it is dropped without a claim, a chat.sent or a last error; at the window itself it is still reported', async () => {
    const world = await aWorld({ mode: 'user' });
    const now = world.clock.now().getTime();

    await handled(world, answerTo('past-window', new Date(now - claimWindowMs - 1), world.clock.now()));
    expect(world.posted).toEqual([]);
    expect(world.published).toEqual([]);
    expect(world.replies).toEqual([]);
    expect(await lastErrorOf(world)).toBe('');
    expect(await world.repo.sendClaims.get('reply:past-window')).toBeNull();

    await handled(world, answerTo('at-window', new Date(now - claimWindowMs), world.clock.now()));
    expect(world.published.map((m) => [m.idempotencyKey, m.isSent, m.error])).toEqual([
      ['reply:at-window', false, tooOldMessage],
    ]);
    expect(await lastErrorOf(world)).toBe(tooOldMessage);
  });

  test('when a chat.send has no source_sent_at (an older sender), then its age counts from source_received_at, as before', async () => {
    const world = await aWorld({ mode: 'user' });
    const { sourceSentAt: _unset, ...fresh } = answerTo('old-sender', world.clock.now());
    const { sourceSentAt: _unsetToo, ...stale } = answerTo(
      'old-sender-late',
      world.clock.now(),
      new Date(world.clock.now().getTime() - 121_000),
    );

    await handled(world, fresh as TopicMessage<'chat.send'>);
    await handled(world, stale as TopicMessage<'chat.send'>);

    expect(world.published.map((m) => [m.idempotencyKey, m.isSent, m.error])).toEqual([
      ['reply:old-sender', true, ''],
      ['reply:old-sender-late', false, tooOldMessage],
    ]);
  });

  test('when a copy comes while its first is still at Kick and the channel is busy, then the copy leaves no queued document and Kick is called for the first only', async () => {
    let endBackoff: () => void = () => undefined;
    const backoff = new Promise<void>((resolve) => {
      endBackoff = resolve;
    });
    const world = await aWorld({ mode: 'user', sleep: () => backoff });
    world.answers.push(new KickApiError(429, 'Too Many Requests'));
    const first = answerTo('busy', world.clock.now());

    await world.sender.handle(first);
    await world.sender.handle({ ...first, eventId: randomUUID() });
    expect(await documents()).toBe(0);
    endBackoff();
    await world.sender.drain();

    expect(world.posted.map((p) => p.message.content)).toEqual(['answer to busy', 'answer to busy']);
    expect(world.published.map((m) => [m.idempotencyKey, m.isSent])).toEqual([['reply:busy', true]]);
    expect(await documents()).toBe(0);
  });

  test('when a reply waits in its channel and is then posted, then its queued document is gone and its key stays', async () => {
    let endBackoff: () => void = () => undefined;
    const backoff = new Promise<void>((resolve) => {
      endBackoff = resolve;
    });
    const world = await aWorld({ mode: 'user', sleep: () => backoff });
    world.answers.push(new KickApiError(429, 'Too Many Requests'));

    await world.sender.handle(answerTo('ahead', world.clock.now()));
    await world.sender.handle(answerTo('behind', world.clock.now()));
    expect(await documents()).toBe(1);
    endBackoff();
    await world.sender.drain();
    await handled(world, answerTo('behind', world.clock.now()));

    expect(world.published.map((m) => [m.idempotencyKey, m.isSent])).toEqual([
      ['reply:ahead', true],
      ['reply:behind', true],
    ]);
    expect(world.posted).toHaveLength(3);
    expect(await documents()).toBe(0);
  });

  test("when an earlier version's claims are in the store (a document per chat.send, 2 days), then the keys of the last 10 minutes still stop copies and older ones are gone", async () => {
    const before = await aWorld({ mode: 'user' });
    const stored = platform.store.collection<SendClaimDoc>('chat-send-claims');
    const at = (agoMs: number) => new Date(before.clock.now().getTime() - agoMs);
    await stored.insertOne({
      _id: 'reply:posted-a-minute-ago',
      claimedAt: at(60_000),
      outcome: null,
      isPublished: false,
      state: 'posting',
      postingAt: at(60_000),
    });
    await stored.insertOne({
      _id: 'reply:posted-a-day-ago',
      claimedAt: at(86_400_000),
      outcome: null,
      isPublished: false,
      state: 'posting',
      postingAt: at(86_400_000),
    });

    // the new version starts on that store
    const after = await aWorld({ mode: 'user' });
    await handled(after, answerTo('posted-a-minute-ago', at(61_000), after.clock.now()));

    expect(after.posted).toEqual([]);
    expect(after.published).toEqual([]);
    expect(await stored.find({})).toEqual([expect.objectContaining({ _id: 'reply:posted-a-minute-ago' })]);
  });
});
