import {
  kickstandTopics,
  createInProcessBus,
  type KickstandTopicName,
  type TopicMessage,
} from '@kickstand/platform/bus';
import { recordPublished } from '@kickstand/platform/testing';
import { BotConnectionStatus, timestampFromMs } from '@kickstand/proto';
import {
  botErrorFromFailedSend,
  botErrorFromStatus,
  botStatusFrom,
  chatMessageFromReceived,
  chatMessageFromSent,
  commandExecutedFrom,
  dateOf,
  isoOf,
  messageSentFrom,
} from './payloads';

// Real messages, as a subscriber receives them: published on an in-process bus and decoded back.
const recorded = recordPublished(createInProcessBus({ topics: kickstandTopics }), kickstandTopics);
afterAll(() => recorded.bus.stop());

async function decoded<T extends KickstandTopicName>(
  topic: T,
  init: Parameters<typeof recorded.bus.publish<T>>[2],
): Promise<TopicMessage<T>> {
  recorded.clear();
  await recorded.bus.publish(topic, 'k', init);
  const [message] = recorded.published(topic);
  if (!message) throw new Error(`nothing recorded on ${topic}`);
  return message;
}

const now = new Date('2026-03-01T12:00:00.000Z');
const at = (iso: string) => timestampFromMs(Date.parse(iso));

describe('chat.received → chat-message', () => {
  test('when a moderator replies to someone, then the line carries the badge types, the flags and the replied-to username', async () => {
    const message = await decoded('chat.received', {
      eventId: 'e1',
      messageId: 'm1',
      sender: {
        username: 'mod_anna',
        identity: {
          badges: [
            { type: 'moderator', text: 'Moderator', count: 0 },
            { type: 'subscriber', text: 'Subscriber', count: 3 },
          ],
        },
      },
      content: 'hello [emote:1:Kappa]',
      createdAt: at('2026-03-01T11:59:58.250Z'),
      repliesTo: { messageId: 'm0', content: 'hi', sender: { username: 'viewer_bob' } },
    });
    expect(chatMessageFromReceived(message, now)).toEqual({
      id: 'm1',
      username: 'mod_anna',
      content: 'hello [emote:1:Kappa]',
      timestamp: '2026-03-01T11:59:58.250Z',
      replyTo: 'viewer_bob',
      isModerator: true,
      isSubscriber: true,
      badges: [{ type: 'moderator' }, { type: 'subscriber' }],
      isBot: false,
    });
  });

  test('when a line has no badges, no reply and no created_at, then the flags are false, replyTo is null and the time falls back to received_at', async () => {
    const message = await decoded('chat.received', {
      eventId: 'e2',
      messageId: 'm2',
      sender: { username: 'viewer' },
      content: '$test',
      receivedAt: at('2026-03-01T11:00:00Z'),
    });
    expect(chatMessageFromReceived(message, now)).toMatchObject({
      replyTo: null,
      isModerator: false,
      isSubscriber: false,
      badges: [],
      timestamp: '2026-03-01T11:00:00.000Z',
    });
  });

  test('when a line has no time at all, then it is stamped with now', async () => {
    const message = await decoded('chat.received', { messageId: 'm3', sender: { username: 'v' }, content: 'x' });
    expect(chatMessageFromReceived(message, now).timestamp).toBe(now.toISOString());
  });
});

describe('chat.sent → message-sent, the bot line and bot-error', () => {
  const aSentReply = () =>
    decoded('chat.sent', {
      eventId: 'e4',
      ownerUserId: 'u1',
      isSent: true,
      messageId: 'kick-9',
      content: 'Hello! This is a test command.',
      replyToMessageId: 'm1',
      replyToUsername: 'viewer_bob',
      sentAt: at('2026-03-01T11:59:59Z'),
    });

  test('when Kick accepted a reply, then message-sent and the bot line say who it replies to', async () => {
    const sent = await aSentReply();
    expect(messageSentFrom(sent, now)).toEqual({
      content: 'Hello! This is a test command.',
      timestamp: '2026-03-01T11:59:59.000Z',
      replyTo: 'viewer_bob',
    });
    expect(chatMessageFromSent(sent, now)).toEqual({
      id: 'kick-9',
      username: 'Kickstand',
      content: 'Hello! This is a test command.',
      timestamp: '2026-03-01T11:59:59.000Z',
      replyTo: 'viewer_bob',
      isModerator: false,
      isSubscriber: false,
      badges: [],
      isBot: true,
    });
  });

  test('when the line is not a reply, then replyTo is null', async () => {
    const announcement = await decoded('chat.sent', { isSent: true, messageId: 'k', content: 'The boss is at 50%!' });
    expect(messageSentFrom(announcement, now).replyTo).toBeNull();
    expect(chatMessageFromSent(announcement, now).replyTo).toBeNull();
  });

  test('when a sent line or a command answer is longer than Kick allows, then what is shown is cut to 500 characters', async () => {
    const long = await decoded('chat.sent', { isSent: true, messageId: 'k', content: 'y'.repeat(2000) });
    expect(chatMessageFromSent(long, now).content).toBe('y'.repeat(500));
    expect(messageSentFrom(long, now).content).toBe('y'.repeat(500));
    const answered = await decoded('command.executed', { command: 'x', response: 'z'.repeat(501) });
    expect(commandExecutedFrom(answered, now).response).toBe('z'.repeat(500));
  });

  test('when the send failed, then bot-error says why', async () => {
    const failed = await decoded('chat.sent', {
      isSent: false,
      error: 'Kick answered 429',
      sentAt: at('2026-03-01T10:00:00Z'),
    });
    expect(botErrorFromFailedSend(failed, now)).toEqual({
      message: 'The bot could not send a message: Kick answered 429',
      timestamp: '2026-03-01T10:00:00.000Z',
    });
  });
});

describe('bot.status → bot-status and bot-error', () => {
  test.each([
    ['CONNECTED', BotConnectionStatus.CONNECTED, true, 'connected'],
    ['DISCONNECTED', BotConnectionStatus.DISCONNECTED, false, 'disconnected'],
    ['ERROR', BotConnectionStatus.ERROR, false, 'disconnected'],
    ['UNSPECIFIED', BotConnectionStatus.UNSPECIFIED, false, 'disconnected'],
  ] as const)(
    'when the status is %s, then connected is %s and status is %s',
    async (_name, status, connected, label) => {
      const message = await decoded('bot.status', {
        userId: 'u1',
        isRunning: true,
        isConnected: true,
        status,
        commandCount: 4,
      });
      expect(botStatusFrom(message)).toEqual({
        isRunning: true,
        isConnected: true,
        connected,
        status: label,
        commands: 4,
        notListeningReason: null,
        error: '',
      });
    },
  );

  test('when bot.status names why the bot does not listen, then bot-status carries it; an unknown code is null', async () => {
    const lost = await decoded('bot.status', { isRunning: true, notListeningReason: 'unsubscribed-by-admin' });
    expect(botStatusFrom(lost).notListeningReason).toBe('unsubscribed-by-admin');
    const unknown = await decoded('bot.status', { notListeningReason: 'from-a-newer-version' });
    expect(botStatusFrom(unknown).notListeningReason).toBeNull();
  });

  test('when the status is ERROR, then bot-error carries the error; otherwise there is none', async () => {
    const failed = await decoded('bot.status', {
      status: BotConnectionStatus.ERROR,
      error: 'Kick refused the subscription',
      occurredAt: at('2026-03-01T09:00:00Z'),
    });
    expect(botErrorFromStatus(failed, now)).toEqual({
      message: 'Kick refused the subscription',
      timestamp: '2026-03-01T09:00:00.000Z',
    });
    expect(botErrorFromStatus(await decoded('bot.status', { status: BotConnectionStatus.ERROR }), now)?.message).toBe(
      'The bot ran into an error.',
    );
    expect(
      botErrorFromStatus(await decoded('bot.status', { status: BotConnectionStatus.CONNECTED }), now),
    ).toBeUndefined();
  });
});

describe('command.executed → command-executed', () => {
  test('when a chatter ran a command, then the payload names the command, the chatter, the answer and the time', async () => {
    const message = await decoded('command.executed', {
      ownerUserId: 'u1',
      command: 'test',
      invokedByUsername: 'viewer_bob',
      response: 'Hello!',
      executedAt: at('2026-03-01T11:30:00.5Z'),
    });
    expect(commandExecutedFrom(message, now)).toEqual({
      command: 'test',
      user: 'viewer_bob',
      response: 'Hello!',
      timestamp: '2026-03-01T11:30:00.500Z',
    });
  });
});

describe('isoOf', () => {
  // @bufbuild/protobuf's timestampDate rounds the nanoseconds to the nearest millisecond
  test.each([
    [1_499_999, '1970-01-01T00:00:01.001Z'],
    [999_999_999, '1970-01-01T00:00:02.000Z'],
  ])('when a timestamp has %d nanoseconds, then they are rounded to the millisecond (%s)', async (nanos, iso) => {
    const message = await decoded('chat.received', { createdAt: { seconds: 1n, nanos } });
    expect(isoOf(message.createdAt, now)).toBe(iso);
  });
});

describe('message times', () => {
  test('when lines carry the same time, then another time, then the first again, then each is written as its own ISO time', () => {
    const times = [
      '2026-03-01T12:00:05.000Z',
      '2026-03-01T12:00:05.000Z',
      '2026-03-01T12:00:05.250Z',
      '2026-03-01T12:00:06.250Z',
    ];
    const written = [...times, times[0] as string].map((iso) => isoOf(at(iso), now));
    expect(written).toEqual([...times, times[0]]);
    expect(isoOf(undefined, now)).toBe('2026-03-01T12:00:00.000Z');
  });

  test('when a line has a time, then its Date is that time; without one, the fallback', () => {
    expect(dateOf(at('2026-03-01T12:00:05.250Z'), now).toISOString()).toBe('2026-03-01T12:00:05.250Z');
    expect(dateOf(undefined, now)).toBe(now);
  });
});
