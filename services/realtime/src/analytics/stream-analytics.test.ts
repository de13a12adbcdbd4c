import { randomUUID } from 'node:crypto';
import {
  createInProcessBus,
  kickstandTopics,
  type KickstandTopicName,
  type TopicMessage,
} from '@kickstand/platform/bus';
import {
  createFakeClock,
  createTestPlatform,
  recordPublished,
  type FakeClock,
  type TestPlatform,
} from '@kickstand/platform/testing';
import { CommandKind, timestampFromDate } from '@kickstand/proto';
import {
  createAnalyticsRepository,
  minutesSpec,
  type AnalyticsRepository,
  type DayDoc,
  type MinuteEntry,
} from './analytics-repository';
import {
  allChannels,
  analyticsMinuteGraceMs,
  createStreamAnalytics,
  type StreamAnalyticsCounter,
} from './stream-analytics';

const start = new Date('2026-03-01T20:00:00Z');
const at = (iso: string) => new Date(iso);

// one store for the file (each test has an owner of its own); the clock is set back before each test
const clock: FakeClock = createFakeClock(start);
let platform: TestPlatform;
let owner: string;
let repo: AnalyticsRepository;
let writes: { minutes: number; days: number };
let analytics: StreamAnalyticsCounter;

beforeAll(async () => {
  platform = await createTestPlatform('realtime', { clock });
  await createAnalyticsRepository(platform.store).createIndexes();
});

afterAll(() => platform.close());

beforeEach(() => {
  clock.set(start);
  owner = `u-${randomUUID()}`;
  const real = createAnalyticsRepository(platform.store);
  writes = { minutes: 0, days: 0 };
  // the real repository, counting the bucket writes
  repo = {
    ...real,
    addMinute: (delta) => {
      writes.minutes += 1;
      return real.addMinute(delta);
    },
    addDay: (delta) => {
      writes.days += 1;
      return real.addDay(delta);
    },
  };
  analytics = createStreamAnalytics({ repo, clock, log: platform.log });
});

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

async function chat(
  username: string,
  sentAt: Date,
  overrides: { messageId?: string; isFromBot?: boolean; ownerUserId?: string } = {},
) {
  analytics.countChat(
    await decoded('chat.received', {
      eventId: randomUUID(),
      messageId: overrides.messageId ?? randomUUID(),
      ownerUserId: overrides.ownerUserId ?? owner,
      broadcasterUserId: '4377088',
      sender: { username },
      content: 'hi',
      isFromBot: overrides.isFromBot ?? false,
      createdAt: timestampFromDate(sentAt),
      receivedAt: timestampFromDate(sentAt),
    }),
  );
}

async function command(name: string, executedAt: Date) {
  analytics.countCommand(
    await decoded('command.executed', {
      eventId: randomUUID(),
      ownerUserId: owner,
      command: name,
      kind: CommandKind.CUSTOM,
      executedAt: timestampFromDate(executedAt),
    }),
  );
}

async function kickEvent(eventType: string, body: unknown, sentAt: Date, kickMessageId: string = randomUUID()) {
  return analytics.countKickEvent(
    await decoded('kick.event', {
      eventId: randomUUID(),
      kickMessageId,
      eventType,
      ownerUserId: owner,
      broadcasterUserId: '4377088',
      messageTimestamp: timestampFromDate(sentAt),
      payloadJson: JSON.stringify(body),
    }),
  );
}

const goLive = (startedAt: string, title: string) =>
  kickEvent(
    'livestream.status.updated',
    { is_live: true, title, started_at: startedAt, ended_at: null },
    at(startedAt),
  );
const endStream = (startedAt: string, endedAt: string, title: string) =>
  kickEvent(
    'livestream.status.updated',
    { is_live: false, title, started_at: startedAt, ended_at: endedAt },
    at(endedAt),
  );

describe('counting', () => {
  test('when 50 lines come in one minute, then one flush writes one minute and one day bucket (and the same for all channels)', async () => {
    for (let index = 0; index < 50; index += 1) await chat(`viewer_${index % 7}`, at('2026-03-01T20:00:10Z'));
    expect(writes).toEqual({ minutes: 0, days: 0 });

    await analytics.flush();

    expect(writes).toEqual({ minutes: 2, days: 2 });
    const report = await analytics.report(owner, '7d');
    expect(report.totals.messages).toBe(50);
    expect(report.totals.uniqueChatters).toBe(7);
  });

  test('when nothing was counted, then a flush writes nothing', async () => {
    await analytics.flush();
    expect(writes).toEqual({ minutes: 0, days: 0 });
  });

  test('when a line is delivered twice or is the bot’s own, then it is counted once or not at all', async () => {
    await chat('alice', at('2026-03-01T20:00:10Z'), { messageId: 'm-1' });
    await chat('alice', at('2026-03-01T20:00:10Z'), { messageId: 'm-1' });
    await chat('kickstand_bot', at('2026-03-01T20:00:11Z'), { isFromBot: true });

    const report = await analytics.report(owner, '7d');

    expect(report.totals.messages).toBe(1);
    expect(report.topChatters).toEqual([{ username: 'alice', messages: 1 }]);
  });

  test('when counts are flushed in several rounds, then the buckets add up', async () => {
    await chat('alice', at('2026-03-01T20:00:10Z'));
    await analytics.flush();
    await chat('alice', at('2026-03-01T20:00:50Z'));
    await chat('bob', at('2026-03-01T20:00:55Z'));
    await analytics.flush();

    const report = await analytics.report(owner, '7d');

    expect(report.totals).toMatchObject({ messages: 3, uniqueChatters: 2 });
    expect(report.topChatters).toEqual([
      { username: 'alice', messages: 2 },
      { username: 'bob', messages: 1 },
    ]);
    expect(writes).toEqual({ minutes: 4, days: 4 });
  });

  test('when two channels have chat, then the all-channels report adds them up and each owner sees only their own', async () => {
    clock.set(at('2026-03-20T12:00:00Z'));
    const other = `u-${randomUUID()}`;
    await chat('alice', at('2026-03-20T11:00:00Z'));
    await chat('bob', at('2026-03-20T11:00:30Z'));
    analytics.countChat(
      await decoded('chat.received', {
        eventId: randomUUID(),
        messageId: randomUUID(),
        ownerUserId: other,
        sender: { username: 'alice' },
        createdAt: timestampFromDate(at('2026-03-20T11:01:00Z')),
      }),
    );

    const everyone = await analytics.report(allChannels, '7d');
    const mine = await analytics.report(owner, '7d');

    expect(everyone.totals).toMatchObject({ messages: 3, uniqueChatters: 2 });
    expect(everyone.topChatters).toEqual([
      { username: 'alice', messages: 2 },
      { username: 'bob', messages: 1 },
    ]);
    expect(mine.totals).toMatchObject({ messages: 2, uniqueChatters: 2 });
  });

  test('when a line is older than the 31 kept days, then it is not counted', async () => {
    clock.set(at('2026-04-15T00:00:00Z'));
    await chat('alice', at('2026-03-01T20:00:10Z'));
    await analytics.flush();
    expect(writes).toEqual({ minutes: 0, days: 0 });
  });
});

describe('writing', () => {
  // small chunks, so that a flush of a few channels takes several of them
  const inChunks = () =>
    createStreamAnalytics({ repo, clock, log: platform.log, writeChunk: 2, writePauseMs: 1, flushEveryMs: 60_000 });

  test('when a flush writes 5 channels (and all channels) 2 at a time, then every channel’s counts are exact', async () => {
    analytics = inChunks();
    clock.set(at('2026-03-25T12:00:00Z'));
    const owners = [owner, ...[1, 2, 3, 4].map((index) => `${owner}-${index}`)];
    for (const [index, ownerUserId] of owners.entries()) {
      for (let line = 0; line <= index; line += 1)
        await chat(`viewer_${line}`, at('2026-03-25T11:58:10Z'), { ownerUserId });
      for (let line = 0; line <= index + 1; line += 1)
        await chat('regular', at('2026-03-25T11:59:20Z'), { ownerUserId });
    }

    await analytics.flush();

    expect(writes).toEqual({ minutes: 12, days: 6 });
    for (const [index, ownerUserId] of owners.entries()) {
      const report = await analytics.report(ownerUserId, '7d');
      expect(report.totals).toMatchObject({ messages: 2 * index + 3, uniqueChatters: index + 2 });
      expect(report.topChatters[0]).toEqual({ username: 'regular', messages: index + 2 });
    }
  });

  test('when the timer’s flush runs, then only the minutes that ended a few seconds ago are written, each once', async () => {
    analytics = inChunks();
    await chat('alice', at('2026-03-01T20:00:10Z'));
    await chat('bob', at('2026-03-01T20:00:50Z'));
    clock.set(at('2026-03-01T20:01:00Z'));
    await chat('carol', at('2026-03-01T20:01:00Z'));

    clock.set(new Date(at('2026-03-01T20:01:00Z').getTime() + analyticsMinuteGraceMs - 1));
    await analytics.flushEnded();
    expect(writes).toEqual({ minutes: 0, days: 0 });

    clock.set(new Date(at('2026-03-01T20:01:00Z').getTime() + analyticsMinuteGraceMs));
    await analytics.flushEnded();
    await analytics.flushEnded();
    expect(writes).toEqual({ minutes: 2, days: 2 });
    const [written] = await repo.minutesBetween(owner, at('2026-03-01T20:00:00Z'), at('2026-03-01T20:02:00Z'));
    expect(written).toMatchObject({ minute: at('2026-03-01T20:00:00Z'), counts: { messages: 2 } });
    // written once: the names as the entry keeps them
    expect(written?.chatters).toEqual([
      ['alice', 1],
      ['bob', 1],
    ]);
  });

  test('when a report comes while the timer’s flush is writing, then it sees every count, the minute under way too', async () => {
    analytics = createStreamAnalytics({ repo, clock, log: platform.log, writeChunk: 1, writePauseMs: 20 });
    for (let index = 0; index < 6; index += 1) await chat(`viewer_${index}`, at(`2026-03-01T19:5${index}:10Z`));
    clock.set(at('2026-03-01T20:00:30Z'));
    await chat('late_one', at('2026-03-01T20:00:20Z'));

    const timed = analytics.flushEnded();
    const report = await analytics.report(owner, '7d');
    await timed;

    expect(report.totals).toMatchObject({ messages: 7, uniqueChatters: 7 });
    expect(writes).toEqual({ minutes: 14, days: 4 });
  });

  test('when a minute is written a second time (a line that came late), then its counts are added to the first', async () => {
    const minute = at('2026-03-01T19:40:00Z');
    const delta = (chatters: Array<[string, number]>, unnamedLines: number, commands: Array<[string, number]>) => ({
      userId: owner,
      minute,
      counts: { messages: 3, commands: 1, follows: 0, subscriptions: 0, giftedSubscriptions: 0, kicks: 0 },
      chatters: new Map(chatters),
      unnamedLines,
      commands: new Map(commands),
    });

    await repo.addMinute(delta([['alice', 3]], 0, [['hello', 1]]));
    await repo.addMinute(
      delta(
        [
          ['alice', 1],
          ['bob', 1],
        ],
        1,
        [['dice', 1]],
      ),
    );

    expect(await repo.minutesBetween(owner, minute, at('2026-03-01T19:41:00Z'))).toEqual([
      {
        _id: `${owner}|2026-03-01T19:40:00.000Z`,
        userId: owner,
        minute,
        counts: { messages: 6, commands: 2, follows: 0, subscriptions: 0, giftedSubscriptions: 0, kicks: 0 },
        chatters: { alice: 4, bob: 1 },
        unnamedLines: 1,
        commandRuns: { hello: 1, dice: 1 },
      },
    ]);
  });

  test('when stopped, then what is left is written, the minute under way too', async () => {
    analytics = inChunks();
    analytics.start();
    await chat('alice', at('2026-03-01T19:59:10Z'));
    await chat('bob', at('2026-03-01T20:00:00Z'));

    await analytics.stop();

    const written = await repo.minutesBetween(owner, at('2026-03-01T19:59:00Z'), at('2026-03-01T20:01:00Z'));
    expect(written.map((minute) => [minute.minute.toISOString(), minute.counts.messages])).toEqual([
      ['2026-03-01T19:59:00.000Z', 1],
      ['2026-03-01T20:00:00.000Z', 1],
    ]);
    expect(writes).toEqual({ minutes: 4, days: 2 });
  });

  test('when lines of a day come after its end, then the day’s chatters count each line once, under its name', async () => {
    const dayStart = at('2026-03-01T00:00:00Z');
    const dayEnd = at('2026-03-02T00:00:00Z');

    clock.set(at('2026-03-01T23:59:40Z'));
    await chat('alice', at('2026-03-01T23:59:30Z'));
    clock.set(at('2026-03-02T00:14:59Z'));
    await chat('bob', at('2026-03-01T23:59:50Z')); // a line of the day, late
    await analytics.flushEnded();
    clock.set(at('2026-03-02T00:15:00Z'));
    await chat('carol', at('2026-03-01T23:59:55Z')); // later still
    await chat('alice', at('2026-03-01T23:59:56Z'));
    await analytics.flushEnded();

    const [day] = await repo.daysBetween(owner, dayStart, dayEnd);
    expect(day?.chatters).toEqual({ alice: 2, bob: 1, carol: 1 });
    expect(day?.unnamedLines).toBeUndefined();
  });
});

describe('the last stream', () => {
  test('when no stream was seen yet, then the last stream is an empty report', async () => {
    await chat('alice', at('2026-03-01T20:00:10Z'));
    const report = await analytics.report(owner, 'last-stream');
    expect(report).toMatchObject({ stream: null, totals: { messages: 0 }, series: { messages: [] }, peaks: [] });
  });

  test('when lines come before, during and after the stream, then only those during it count for it', async () => {
    await chat('early', at('2026-03-01T19:59:30Z'));
    await goLive('2026-03-01T20:00:00Z', 'ranked grind');
    await chat('alice', at('2026-03-01T20:00:10Z'));
    await chat('bob', at('2026-03-01T20:02:10Z'));
    await endStream('2026-03-01T20:00:00Z', '2026-03-01T20:02:30Z', 'ranked grind');
    await chat('late', at('2026-03-01T20:03:10Z'));
    clock.set(at('2026-03-01T21:00:00Z'));

    const stream = await analytics.report(owner, 'last-stream');
    const week = await analytics.report(owner, '7d');

    expect(stream).toMatchObject({
      from: '2026-03-01T20:00:00.000Z',
      to: '2026-03-01T20:03:00.000Z',
      stream: { startedAt: '2026-03-01T20:00:00.000Z', endedAt: '2026-03-01T20:02:30.000Z', title: 'ranked grind' },
      totals: { messages: 2, uniqueChatters: 2 },
      series: { messages: [1, 0, 1] },
    });
    expect(week.totals).toMatchObject({ messages: 4, uniqueChatters: 4 });
  });

  test('when a report is asked while a minute is under way, then that minute is written then and again once over, and the last stream sums both', async () => {
    clock.set(at('2026-03-01T20:01:30Z'));
    await goLive('2026-03-01T20:00:00Z', 'ranked grind');
    await chat('alice', at('2026-03-01T20:00:10Z'));
    await chat('bob', at('2026-03-01T20:01:10Z'));

    const during = await analytics.report(owner, 'last-stream');
    await chat('carol', at('2026-03-01T20:01:40Z'));
    await chat('bob', at('2026-03-01T20:01:50Z'));
    clock.set(at('2026-03-01T20:02:10Z'));
    await analytics.flushEnded();
    const after = await analytics.report(owner, 'last-stream');

    expect(during.series.messages).toEqual([1, 1]);
    const minutes = platform.store.recentLog<MinuteEntry>('analytics-minutes', minutesSpec);
    const written = await minutes.range(owner, at('2026-03-01T20:01:00Z'), at('2026-03-01T20:02:00Z'));
    expect(written.map((item) => [item.id, item.entry.counts.messages])).toEqual([
      [`${owner}|2026-03-01T20:01:00.000Z`, 1],
      [`${owner}|2026-03-01T20:01:00.000Z|2`, 2],
    ]);
    expect(after.series.messages).toEqual([1, 3, 0]);
    expect(after.totals).toMatchObject({ messages: 4, uniqueChatters: 3 });
    expect(after.topChatters).toEqual([
      { username: 'bob', messages: 2 },
      { username: 'alice', messages: 1 },
      { username: 'carol', messages: 1 },
    ]);
  });

  test('when the end is delivered before the start, then the stream still has both', async () => {
    await endStream('2026-03-01T20:00:00Z', '2026-03-01T20:10:00Z', 'ranked grind');
    await goLive('2026-03-01T20:00:00Z', 'ranked grind');

    const report = await analytics.report(owner, 'last-stream');

    expect(report.stream).toEqual({
      startedAt: '2026-03-01T20:00:00.000Z',
      endedAt: '2026-03-01T20:10:00.000Z',
      title: 'ranked grind',
    });
  });

  test('when a burst happens after a title change, then the peak carries the title of that moment', async () => {
    clock.set(at('2026-03-01T20:05:30Z'));
    await goLive('2026-03-01T20:00:00Z', 'ranked grind');
    for (let minute = 0; minute < 6; minute += 1) {
      await chat('alice', at(`2026-03-01T20:0${minute}:05Z`));
      await chat('bob', at(`2026-03-01T20:0${minute}:06Z`));
    }
    await kickEvent('livestream.metadata.updated', { metadata: { title: 'boss fight' } }, at('2026-03-01T20:03:30Z'));
    for (let index = 0; index < 20; index += 1) await chat(`fan_${index}`, at('2026-03-01T20:04:20Z'));
    await command('hello', at('2026-03-01T20:04:21Z'));
    await command('$hello', at('2026-03-01T20:04:22Z'));
    await command('dice', at('2026-03-01T20:05:00Z'));

    const report = await analytics.report(owner, 'last-stream');

    expect(report.stream).toMatchObject({ endedAt: null, title: 'boss fight' });
    expect(report.series.messages).toEqual([2, 2, 2, 2, 22, 2]);
    expect(report.peaks).toEqual([{ at: '2026-03-01T20:04:00.000Z', messages: 22, title: 'boss fight' }]);
    expect(report.topCommands).toEqual([
      { command: 'hello', executions: 2 },
      { command: 'dice', executions: 1 },
    ]);
    expect(report.totals).toMatchObject({ messages: 32, uniqueChatters: 22, commands: 3 });
  });

  test('when followers, subscribers and gifts come, then they are counted by minute, a repeated delivery once', async () => {
    await goLive('2026-03-01T20:00:00Z', 'ranked grind');
    await kickEvent('channel.followed', { follower: { username: 'new_fan' } }, at('2026-03-01T20:00:10Z'), 'k-1');
    await kickEvent('channel.followed', { follower: { username: 'new_fan' } }, at('2026-03-01T20:00:10Z'), 'k-1');
    await kickEvent('channel.subscription.new', { duration: 1 }, at('2026-03-01T20:01:10Z'));
    await kickEvent('channel.subscription.renewal', { duration: 7 }, at('2026-03-01T20:01:20Z'));
    await kickEvent('channel.subscription.gifts', { giftees: [{}, {}, {}, {}, {}] }, at('2026-03-01T20:01:30Z'));
    await kickEvent('kicks.gifted', { gift: { amount: 100 } }, at('2026-03-01T20:01:40Z'));
    clock.set(at('2026-03-01T20:01:50Z'));

    const report = await analytics.report(owner, 'last-stream');

    expect(report.series).toMatchObject({
      follows: [1, 0],
      subscriptions: [0, 2],
      giftedSubscriptions: [0, 5],
      kicks: [0, 100],
    });
    expect(report.totals).toMatchObject({ follows: 1, subscriptions: 2, giftedSubscriptions: 5, kicks: 100 });
  });
});

describe('the days that ended', () => {
  const inCollection = () => platform.store.collection<DayDoc>('analytics-days').count({ userId: owner });

  test('when the timer flushes more than an hour after a day ended, then the day leaves the collection and the 7-day report still counts it', async () => {
    await chat('alice', at('2026-03-01T20:00:10Z'));
    await chat('bob', at('2026-03-01T20:00:20Z'));
    clock.set(at('2026-03-01T20:01:03Z'));
    await analytics.flushEnded();
    expect(await inCollection()).toBe(1);

    clock.set(at('2026-03-02T00:59:00Z'));
    await analytics.flushEnded();
    expect(await inCollection()).toBe(1);

    clock.set(at('2026-03-02T01:00:03Z'));
    // the store is shared with the other tests, whose days are moved too, a few per flush
    for (let flush = 0; flush < 50 && (await inCollection()) > 0; flush += 1) await analytics.flushEnded();
    expect(await inCollection()).toBe(0);
    const week = await analytics.report(owner, '7d');
    expect(week.totals).toMatchObject({ messages: 2, uniqueChatters: 2 });
    expect(week.topChatters).toEqual([
      { username: 'alice', messages: 1 },
      { username: 'bob', messages: 1 },
    ]);
  });
});
