import { existsSync } from 'node:fs';
import path from 'node:path';
import { createSilentLogger } from '@kickstand/platform/log';
import { createEmbeddedStore, type Document, type Filter, type Store } from '@kickstand/platform/store';
import { createFakeClock, createTempDirs } from '@kickstand/platform/testing';
import {
  createAnalyticsRepository,
  minutesSpec,
  type DayDoc,
  type MinuteDoc,
  type MinuteEntry,
  type StoredDayDoc,
} from './analytics-repository';
import { analyticsLimits, zeroCounts, type DayDelta, type MinuteDelta } from './buckets';
import { createStreamAnalytics } from './stream-analytics';

const at = (iso: string) => new Date(iso);
const clock = createFakeClock(at('2026-03-01T20:00:00Z'));
const log = createSilentLogger();
const dirs = createTempDirs('analytics');
const stores: Store[] = [];

afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await dirs.removeAll();
});

async function openStore(dir: string): Promise<Store> {
  const store = await createEmbeddedStore({ dir, clock, log });
  stores.push(store);
  return store;
}

const delta = (
  userId: string,
  minute: Date,
  messages: number,
  chatters: Array<[string, number]>,
  commands: Array<[string, number]> = [],
): MinuteDelta => ({
  userId,
  minute,
  counts: { ...zeroCounts(), messages, commands: commands.reduce((sum, [, runs]) => sum + runs, 0) },
  chatters: new Map(chatters),
  unnamedLines: 0,
  commands: new Map(commands),
});

/** The entries the store's recent log holds for the owner, as [id, minute ISO, messages]. */
async function entriesOf(store: Store, userId: string, from: Date, to: Date) {
  const minutes = store.recentLog<MinuteEntry>('analytics-minutes', minutesSpec);
  await minutes.open();
  return (await minutes.range(userId, from, to)).map(({ id, at: minute, entry }) => [
    id,
    minute.toISOString(),
    entry.counts.messages,
  ]);
}

describe('the minutes of stream analytics (recent log analytics-minutes)', () => {
  test('when a minute is written three times, then it is three entries, read back as one minute with their counts summed', async () => {
    const store = await openStore(await dirs.make());
    const repo = createAnalyticsRepository(store);
    await repo.createIndexes();
    const minute = at('2026-03-01T19:40:00Z');

    await repo.addMinute(delta('u1', minute, 3, [['alice', 3]], [['hello', 1]]));
    await repo.addMinute(delta('u1', at('2026-03-01T19:41:00Z'), 1, [['bob', 1]]));
    // a line that came late for 19:40, twice
    await repo.addMinute(
      delta(
        'u1',
        minute,
        2,
        [
          ['alice', 1],
          ['carol', 1],
        ],
        [['dice', 1]],
      ),
    );
    await repo.addMinute(delta('u1', minute, 1, [['carol', 1]]));

    expect(await entriesOf(store, 'u1', minute, at('2026-03-01T19:42:00Z'))).toEqual([
      ['u1|2026-03-01T19:40:00.000Z', '2026-03-01T19:40:00.000Z', 3],
      ['u1|2026-03-01T19:40:00.000Z|2', '2026-03-01T19:40:00.000Z', 2],
      ['u1|2026-03-01T19:40:00.000Z|3', '2026-03-01T19:40:00.000Z', 1],
      ['u1|2026-03-01T19:41:00.000Z', '2026-03-01T19:41:00.000Z', 1],
    ]);
    expect(await repo.minutesBetween('u1', minute, at('2026-03-01T19:42:00Z'))).toEqual([
      {
        _id: 'u1|2026-03-01T19:40:00.000Z',
        userId: 'u1',
        minute,
        counts: { ...zeroCounts(), messages: 6, commands: 2 },
        chatters: { alice: 4, carol: 2 },
        commandRuns: { hello: 1, dice: 1 },
      },
      {
        _id: 'u1|2026-03-01T19:41:00.000Z',
        userId: 'u1',
        minute: at('2026-03-01T19:41:00Z'),
        counts: { ...zeroCounts(), messages: 1 },
        chatters: [['bob', 1]],
      },
    ]);
  });

  test('when another writer took the first ids of a minute, then this one writes the next free one', async () => {
    const store = await openStore(await dirs.make());
    const other = createAnalyticsRepository(store);
    const repo = createAnalyticsRepository(store);
    await repo.createIndexes();
    const minute = at('2026-03-01T19:40:00Z');
    await other.addMinute(delta('u1', minute, 1, [['alice', 1]]));
    await other.addMinute(delta('u1', minute, 1, [['alice', 1]]));

    await repo.addMinute(delta('u1', minute, 5, [['bob', 5]]));

    expect((await entriesOf(store, 'u1', minute, at('2026-03-01T19:41:00Z'))).map(([id]) => id)).toEqual([
      'u1|2026-03-01T19:40:00.000Z',
      'u1|2026-03-01T19:40:00.000Z|2',
      'u1|2026-03-01T19:40:00.000Z|3',
    ]);
    expect((await repo.minutesBetween('u1', minute, at('2026-03-01T19:41:00Z')))[0]?.counts.messages).toBe(7);
  });

  test('when an owner has more active minutes than the last stream can show, then the oldest beyond 2,880 are dropped', async () => {
    const store = await openStore(await dirs.make());
    const repo = createAnalyticsRepository(store);
    await repo.createIndexes();
    const first = at('2026-03-01T00:00:00Z').getTime();
    const minuteAt = (n: number) => new Date(first + n * 60_000);
    const kept = analyticsLimits.streamMinutes;
    await Promise.all(Array.from({ length: kept + 2 }, (_, n) => repo.addMinute(delta('u1', minuteAt(n), 1, []))));

    const read = await repo.minutesBetween('u1', minuteAt(0), minuteAt(kept + 2));
    expect(read.length).toBe(kept);
    expect(read[0]?.minute).toEqual(minuteAt(2));
    expect(read[kept - 1]?.minute).toEqual(minuteAt(kept + 1));
  });

  test('when the data folder holds the former analytics-minutes collection, then its minutes are imported once, the datafile goes, and the last stream reads them', async () => {
    const dir = await dirs.make();
    const before = await openStore(dir);
    const former = before.collection<MinuteDoc>('analytics-minutes');
    await former.createIndex({ fields: { userId: 1, minute: 1 } });
    await former.createIndex({ fields: { minute: 1 }, expireAfterSeconds: analyticsLimits.retentionDays * 86_400 });
    const minute = at('2026-03-01T19:00:00Z');
    await former.insertOne({
      _id: 'u1|2026-03-01T19:00:00.000Z',
      userId: 'u1',
      minute,
      counts: { ...zeroCounts(), messages: 2 },
      chatters: { alice: 2 },
    });
    // the former second write: a `$inc` into the document
    await former.updateOne(
      { _id: 'u1|2026-03-01T19:00:00.000Z' },
      { $inc: { 'counts.messages': 1, 'chatters.bob': 1, unnamedLines: 1 } },
    );
    await former.insertOne({
      _id: 'u1|2026-03-01T19:01:00.000Z',
      userId: 'u1',
      minute: at('2026-03-01T19:01:00Z'),
      counts: { ...zeroCounts(), messages: 1, commands: 1 },
      chatters: { carol: 1 },
      commandRuns: { dice: 1 },
    });
    await before.close();
    stores.splice(stores.indexOf(before), 1);

    const after = await openStore(dir);
    const repo = createAnalyticsRepository(after);
    await repo.createIndexes();
    expect(existsSync(path.join(dir, 'analytics-minutes.db'))).toBe(false);
    await repo.streamStarted('u1', minute, 'before the upgrade');
    await repo.streamEnded('u1', minute, at('2026-03-01T19:01:30Z'), 'before the upgrade');
    const report = await createStreamAnalytics({ repo, clock, log }).report('u1', 'last-stream');

    expect(report).toMatchObject({
      from: '2026-03-01T19:00:00.000Z',
      to: '2026-03-01T19:02:00.000Z',
      totals: { messages: 4, commands: 1, uniqueChatters: 3, isChattersCapped: true },
      series: { messages: [3, 1], commands: [0, 1] },
      topCommands: [{ command: 'dice', executions: 1 }],
    });
    // imported once: a restart reads the same from the recent log alone
    await after.close();
    stores.splice(stores.indexOf(after), 1);
    const again = createAnalyticsRepository(await openStore(dir));
    await again.createIndexes();
    expect(
      (await again.minutesBetween('u1', minute, at('2026-03-01T19:02:00Z'))).map((doc) => doc.counts.messages),
    ).toEqual([3, 1]);
  });
});

const day = at('2026-03-01T00:00:00Z');
const nextDay = at('2026-03-02T00:00:00Z');
const hourCounts = (messages: number) => ({ ...zeroCounts(), messages });
/** An hour as the day document keeps it: only the counts that are not 0. */
const storedHour = (messages: number) => ({ messages });
const dayDelta = (userId: string, hours: Array<[string, number]>, ofDay: Date = day): DayDelta => ({
  userId,
  day: ofDay,
  hours: new Map(hours.map(([hour, messages]) => [hour, hourCounts(messages)])),
  commands: new Map([['dice', 1]]),
});
type Repository = ReturnType<typeof createAnalyticsRepository>;
/**
 * Writes a day as the flush does: one minute in each of its hours (the chatters in the first), then
 * the day's counts. The chatters in the order written: the order a day keeps new names in.
 */
async function writeDay(
  repo: Repository,
  userId: string,
  hours: Array<[string, number]>,
  chatters: Record<string, number>,
  ofDay: Date = day,
) {
  for (const [index, [hour, messages]] of hours.entries()) {
    const minute = new Date(ofDay.getTime() + Number(hour) * 3_600_000 + index * 60_000);
    await repo.addMinute(delta(userId, minute, messages, index === 0 ? Object.entries(chatters) : []));
  }
  await repo.addDay(dayDelta(userId, hours, ofDay));
}
/** The day as the 7 and 30 day reports read it: hours, chatters, commands. */
async function dayRead(repo: Repository, userId: string) {
  const docs = await repo.daysBetween(userId, day, nextDay);
  return docs.map((doc) => ({
    _id: doc._id,
    day: doc.day.toISOString(),
    hours: doc.hours,
    chatters: { ...doc.chatters },
    commandRuns: { ...doc.commandRuns },
  }));
}

/** A fresh store with one day written for each of the owners. */
async function withDays(userIds: string[], chatters: Record<string, number> = { alice: 1 }) {
  const store = await openStore(await dirs.make());
  const repo = createAnalyticsRepository(store);
  await repo.createIndexes();
  for (const userId of userIds) await writeDay(repo, userId, [['20', 1]], chatters);
  return { store, repo };
}
/** The day's document as the collection analytics-days holds it. */
const storedDay = (store: Store, userId: string) =>
  store.collection<StoredDayDoc>('analytics-days').findOne({ _id: `${userId}|2026-03-01` });

describe('the days (collection analytics-days)', () => {
  test('when a day is written, then its document keeps its counts and no names, and the reports read its chatters from its minutes', async () => {
    const { store, repo } = await withDays(['u1'], { bob: 2, alice: 1 });

    await writeDay(repo, 'u1', [['21', 1]], { carol: 1, bob: 1 });

    expect(await storedDay(store, 'u1')).toEqual({
      _id: 'u1|2026-03-01',
      userId: 'u1',
      day,
      hours: { '20': storedHour(1), '21': storedHour(1) },
      commandRuns: { dice: 2 },
      writes: 2,
    });
    const [read] = await repo.daysBetween('u1', day, nextDay);
    expect(Object.entries(read?.chatters ?? {})).toEqual([
      ['bob', 3],
      ['alice', 1],
      ['carol', 1],
    ]);
    expect(read?.unnamedLines).toBeUndefined();
  });

  test('when a day’s minutes name more chatters than its cap, then a newcomer’s lines are unnamed and a kept name still counts under its name', async () => {
    const store = await openStore(await dirs.make());
    const repo = createAnalyticsRepository(store);
    await repo.createIndexes();
    const names: Array<[string, number]> = Array.from({ length: analyticsLimits.chattersPerDay }, (_, index) => [
      `v${index}`,
      1,
    ]);
    // 500 names a minute, as the minutes' own cap keeps them
    for (let first = 0; first < names.length; first += analyticsLimits.chattersPerMinute) {
      const minute = new Date(day.getTime() + 20 * 3_600_000 + (first / analyticsLimits.chattersPerMinute) * 60_000);
      await repo.addMinute(delta('u1', minute, 500, names.slice(first, first + analyticsLimits.chattersPerMinute)));
    }
    await repo.addMinute(
      delta('u1', at('2026-03-01T21:00:00Z'), 5, [
        ['newcomer', 2],
        ['v7', 3],
      ]),
    );
    await repo.addDay(
      dayDelta('u1', [
        ['20', 5_000],
        ['21', 5],
      ]),
    );

    const [read] = await repo.daysBetween('u1', day, nextDay);
    expect(Object.keys(read?.chatters ?? {})).toHaveLength(analyticsLimits.chattersPerDay);
    expect([read?.chatters?.v7, read?.chatters?.newcomer, read?.unnamedLines]).toEqual([4, undefined, 2]);
  });

  test('when a day document of an earlier version keeps chatters (as text or as an object), then they are not read twice, and its next write removes them', async () => {
    const { store, repo } = await withDays(['u1', 'u2'], { alice: 2, bob: 1 });
    const days = store.collection<StoredDayDoc>('analytics-days');
    // as the versions before wrote them, beside the same lines in the minutes
    await days.updateOne(
      { _id: 'u1|2026-03-01' },
      { $set: { chatterNames: 'alice bob', chatterLines: '2 1', unnamedLines: 4 } },
    );
    await days.updateOne({ _id: 'u2|2026-03-01' }, { $set: { chatters: { alice: 2, bob: 1 } } });
    const expected = [{ hours: { '20': storedHour(1) }, chatters: { alice: 2, bob: 1 } }];
    expect(await dayRead(repo, 'u1')).toMatchObject(expected);
    expect(await dayRead(repo, 'u2')).toMatchObject(expected);

    await repo.addDay(dayDelta('u1', [['20', 1]]));
    await repo.addDay(dayDelta('u2', [['20', 1]]));

    for (const userId of ['u1', 'u2']) {
      expect(await storedDay(store, userId)).toEqual({
        _id: `${userId}|2026-03-01`,
        userId,
        day,
        hours: { '20': storedHour(2) },
        commandRuns: { dice: 2 },
        writes: 2,
      });
    }
  });

  test('when another write of the day comes between a write’s read and its update, then the write reads the day again and both count', async () => {
    const { store } = await withDays(['u1'], { alice: 1 });
    const other = createAnalyticsRepository(store);
    let between: (() => Promise<unknown>) | undefined = () => other.addDay(dayDelta('u1', [['20', 1]]));
    const racing: Store = {
      ...store,
      collection: <T extends Document>(name: string) => {
        const collection = store.collection<T>(name);
        if (name !== 'analytics-days') return collection;
        return {
          ...collection,
          findOne: async (filter: Filter) => {
            const doc = await collection.findOne(filter);
            const write = between;
            between = undefined;
            await write?.();
            return doc;
          },
        };
      },
    };
    const repo = createAnalyticsRepository(racing);

    await repo.addDay(dayDelta('u1', [['20', 1]]));

    expect(await storedDay(store, 'u1')).toMatchObject({
      hours: { '20': storedHour(3) },
      commandRuns: { dice: 3 },
      writes: 3,
    });
  });

  test('when a day counts its cap of commands, then a new command is not counted by name and a counted one still is', async () => {
    const { store, repo } = await withDays(['u1']);
    const commands = Array.from({ length: analyticsLimits.commandsPerBucket - 1 }, (_, index) => `c${index}`);
    await repo.addDay({ ...dayDelta('u1', [['20', 1]]), commands: new Map(commands.map((name) => [name, 1])) });

    await repo.addDay({
      ...dayDelta('u1', [['21', 1]]),
      commands: new Map([
        ['late', 1],
        ['dice', 2],
      ]),
    });

    const stored = await storedDay(store, 'u1');
    expect(Object.keys(stored?.commandRuns ?? {})).toHaveLength(analyticsLimits.commandsPerBucket);
    expect([stored?.commandRuns?.dice, stored?.commandRuns?.late]).toEqual([3, undefined]);
  });
});

describe('the days that ended (recent log analytics-past-days)', () => {
  /** The day's documents in the collection analytics-days (the moved ones are not there). */
  const inCollection = (store: Store) => store.collection<DayDoc>('analytics-days').count({});

  test('when a day ended, then closeDays moves its document out of the collection with its minutes’ chatters, and the reports read the same day, after a restart too', async () => {
    const dir = await dirs.make();
    const store = await openStore(dir);
    const repo = createAnalyticsRepository(store);
    await repo.createIndexes();
    await writeDay(
      repo,
      'u1',
      [
        ['19', 2],
        ['20', 1],
      ],
      { alice: 2, bob: 1 },
    );
    await writeDay(repo, 'u2', [['20', 1]], { carol: 1 });
    const before = await dayRead(repo, 'u1');

    expect(await repo.closeDays(nextDay, 10)).toBe(2);

    expect(await inCollection(store)).toBe(0);
    expect(await dayRead(repo, 'u1')).toEqual(before);
    expect(before).toEqual([
      {
        _id: 'u1|2026-03-01',
        day: '2026-03-01T00:00:00.000Z',
        hours: { '19': storedHour(2), '20': storedHour(1) },
        chatters: { alice: 2, bob: 1 },
        commandRuns: { dice: 1 },
      },
    ]);
    await store.close();
    stores.splice(stores.indexOf(store), 1);
    const again = createAnalyticsRepository(await openStore(dir));
    await again.createIndexes();
    expect(await dayRead(again, 'u1')).toEqual(before);
  });

  test('when a day has not started before the given date, then closeDays leaves it in the collection', async () => {
    const { store, repo } = await withDays(['u1']);

    expect(await repo.closeDays(day, 10)).toBe(0);
    expect(await inCollection(store)).toBe(1);
  });

  test('when closeDays is given a limit, then it moves that many days, oldest first', async () => {
    const { store, repo } = await withDays(['u1', 'u2']);
    const dayBefore = at('2026-02-28T00:00:00Z');
    await writeDay(repo, 'u3', [['20', 1]], { alice: 1 }, dayBefore);

    expect(await repo.closeDays(nextDay, 1)).toBe(1);
    expect((await store.collection<DayDoc>('analytics-days').find({})).map((doc) => doc._id).sort()).toEqual([
      'u1|2026-03-01',
      'u2|2026-03-01',
    ]);
    expect(await repo.closeDays(nextDay, 2)).toBe(2);
    expect(await inCollection(store)).toBe(0);
  });

  test('when the same document is moved again (a stop between the log and the delete, or two instances at once), then the day counts once', async () => {
    const { store, repo } = await withDays(['u1'], { alice: 3 });
    const [doc] = await store.collection<DayDoc>('analytics-days').find({});
    await repo.closeDays(nextDay, 10);

    // the document is back as it was when it was logged
    await store.collection<DayDoc>('analytics-days').insertOne(doc as DayDoc);
    expect(await repo.closeDays(nextDay, 10)).toBe(1);

    expect(await dayRead(repo, 'u1')).toMatchObject([{ hours: { '20': storedHour(1) }, chatters: { alice: 3 } }]);
  });

  test('when a day is written again after it was moved, then its commands count against the cap together, its chatters are not read twice, and the reports sum both', async () => {
    const { repo } = await withDays(['u1'], { alice: 2, bob: 1 });
    await repo.closeDays(nextDay, 10);

    // a Kick event delivered a day late: counts, no chat line
    await repo.addDay(dayDelta('u1', [['21', 2]]));
    const expected = [
      {
        hours: { '20': storedHour(1), '21': storedHour(2) },
        chatters: { alice: 2, bob: 1 },
        commandRuns: { dice: 2 },
      },
    ];
    expect(await dayRead(repo, 'u1')).toMatchObject(expected);

    // moved too: two entries of the day, still read as one
    expect(await repo.closeDays(nextDay, 10)).toBe(1);
    expect(await dayRead(repo, 'u1')).toMatchObject(expected);
  });
});
