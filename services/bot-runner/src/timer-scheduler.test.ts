import { kickstandTopics } from '@kickstand/platform/bus';
import { createSilentLogger } from '@kickstand/platform/log';
import { createFakeClock, createTestPlatform, recordPublished, type TestPlatform } from '@kickstand/platform/testing';
import { ChatOrigin, timestampFromDate } from '@kickstand/proto';
import { createChannelsRepository } from './channels';
import { createLease } from './lease';
import { createTimerScheduler, type TimerScheduler } from './timer-scheduler';
import type { TimerBot } from './timer-schedule';
import { createTimersRepository } from './timers';

const minute = 60_000;
const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
const owner = 'u-timers';
const channel = '4377088';
let platform: TestPlatform;
let recorded: ReturnType<typeof recordPublished<typeof kickstandTopics>>;
let bot: TimerBot | undefined;

beforeEach(async () => {
  clock.set(new Date('2026-03-02T18:00:00Z'));
  platform = await createTestPlatform('bot-runner', { clock });
  recorded = recordPublished(platform.bus, kickstandTopics);
  bot = { isRunning: true, broadcasterUserId: channel };
});

afterEach(async () => {
  await platform.close();
});

/** One bot-runner's timer loop over the shared store (an instance), with the lease named `instance`. */
function aRunner(instance: string): TimerScheduler {
  return createTimerScheduler({
    channels: createChannelsRepository(platform.store),
    timers: createTimersRepository(platform.store),
    botOf: (userId) => (userId === owner ? bot : undefined),
    bus: recorded.bus,
    lease: createLease({ store: platform.store, name: 'bot-runner.timers', owner: instance, ttlMs: 45_000, clock }),
    clock,
    log: createSilentLogger(),
    minuteMs: minute,
    tickMs: 15_000,
  });
}

const channels = () => createChannelsRepository(platform.store);
const timers = () => createTimersRepository(platform.store);

async function goLive(): Promise<void> {
  const nowMs = clock.now().getTime();
  await channels().applyStatus(owner, channel, { isLive: true, startedAtMs: nowMs, title: 'ranked' }, nowMs);
}

async function addTimer(message: string, intervalMinutes: number, minChatLines = 0): Promise<string> {
  const doc = await timers().add(owner, { message, intervalMinutes, minChatLines }, clock.now().getTime());
  clock.advance(1); // the rotation follows the order of adding
  await channels().setEnabledTimers(owner, await timers().countEnabled(owner));
  return doc._id;
}

const posted = () => recorded.published('chat.send').map((message) => message.content);

async function chat(runner: TimerScheduler, lines: number): Promise<void> {
  for (let i = 0; i < lines; i += 1) runner.countLine(owner);
}

describe('timer loop', () => {
  test('when the interval has passed since going live and chat is active, then the timer posts once, as chat.send', async () => {
    const runner = aRunner('a');
    await addTimer('Follow the channel!', 5);
    await goLive();

    clock.advance(5 * minute);
    await runner.tick();
    await runner.tick();

    const sent = recorded.publishedWithKeys('chat.send');
    expect(sent.map(({ key, message }) => [key, message.content, message.ownerUserId, message.origin])).toEqual([
      [channel, 'Follow the channel!', owner, ChatOrigin.SYSTEM],
    ]);
    expect(sent[0]?.message.idempotencyKey).toMatch(/^timer:[0-9a-f-]{36}$/);
    // the line's own time (kick-link ages it from there): when the post was decided
    expect(sent[0]?.message.sourceSentAt).toEqual(timestampFromDate(clock.now()));
    expect((await timers().list(owner))[0]?.lastPostedAtMs).toBe(clock.now().getTime());
  });

  test('when the interval has not passed yet, then nothing is posted', async () => {
    const runner = aRunner('a');
    await addTimer('Follow!', 10);
    await goLive();

    clock.advance(10 * minute - 1);
    await runner.tick();

    expect(posted()).toEqual([]);
  });

  test('when the channel is not live, then nothing is posted however long it waits', async () => {
    const runner = aRunner('a');
    await addTimer('Follow!', 5);

    clock.advance(60 * minute);
    await runner.tick();

    expect(posted()).toEqual([]);
  });

  test('when the stream ended, then the timers stop', async () => {
    const runner = aRunner('a');
    await addTimer('Follow!', 5);
    await goLive();
    clock.advance(5 * minute);
    await runner.tick();
    const nowMs = clock.now().getTime();
    await channels().applyStatus(owner, channel, { isLive: false, startedAtMs: null, title: undefined }, nowMs);

    clock.advance(30 * minute);
    await runner.tick();

    expect(posted()).toEqual(['Follow!']);
  });

  test('when the bot is not running for the channel, then nothing is posted', async () => {
    const runner = aRunner('a');
    await addTimer('Follow!', 5);
    await goLive();
    bot = { isRunning: false, broadcasterUserId: channel };

    clock.advance(5 * minute);
    await runner.tick();

    expect(posted()).toEqual([]);
  });

  test('when fewer chat lines than the minimum arrived since the last post, then it waits for them', async () => {
    const runner = aRunner('a');
    await addTimer('Hydrate!', 5, 3);
    await goLive();
    await chat(runner, 2);

    clock.advance(5 * minute);
    await runner.tick();
    expect(posted()).toEqual([]);

    await chat(runner, 1);
    await runner.tick();
    expect(posted()).toEqual(['Hydrate!']);

    // the lines count again from the post: a dead chat is not spammed
    clock.advance(20 * minute);
    await chat(runner, 2);
    await runner.tick();
    expect(posted()).toEqual(['Hydrate!']);
  });

  test('when lines arrive while offline, then they do not count toward the minimum', async () => {
    const runner = aRunner('a');
    await addTimer('Hydrate!', 5, 1);
    await chat(runner, 5);
    await runner.tick();
    await goLive();

    clock.advance(5 * minute);
    await runner.tick();

    expect(posted()).toEqual([]);
  });

  test('when several timers are enabled, then they take turns, one post per interval, in the order added', async () => {
    const runner = aRunner('a');
    await addTimer('one', 5);
    await addTimer('two', 5);
    await addTimer('three', 10);
    await goLive();

    for (let round = 0; round < 5; round += 1) {
      clock.advance(5 * minute);
      await runner.tick();
    }

    // "three" waits 10 minutes after "two"
    expect(posted()).toEqual(['one', 'two', 'three', 'one']);
  });

  test('when a timer is disabled, then the rotation skips it', async () => {
    const runner = aRunner('a');
    await addTimer('one', 5);
    const two = await addTimer('two', 5);
    await addTimer('three', 5);
    await timers().update(owner, two, { enabled: false });
    await goLive();

    for (let round = 0; round < 3; round += 1) {
      clock.advance(5 * minute);
      await runner.tick();
    }

    expect(posted()).toEqual(['one', 'three', 'one']);
  });

  test('when two bot-runners share the store, then only the one holding the lease posts, once per interval', async () => {
    const a = aRunner('a');
    const b = aRunner('b');
    await addTimer('Follow!', 5);
    await goLive();

    clock.advance(5 * minute);
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([b.tick(), a.tick()]);
    clock.advance(minute);
    await Promise.all([a.tick(), b.tick()]);

    expect(posted()).toEqual(['Follow!']);
    const lease = await platform.store
      .collection<{ _id: string; owner: string }>('leases')
      .findOne({ _id: 'bot-runner.timers' });
    expect(lease?.owner).toBe('a');
  });

  test('when the lease holder stops renewing, then the other runner takes over after the lease expired, without posting twice', async () => {
    const a = aRunner('a');
    const b = aRunner('b');
    await addTimer('Follow!', 5);
    await goLive();
    await a.tick(); // a holds the lease

    clock.advance(5 * minute); // a is gone: its lease (45 s) has expired
    await b.tick();
    await b.tick();

    expect(posted()).toEqual(['Follow!']);
    const lease = await platform.store
      .collection<{ _id: string; owner: string }>('leases')
      .findOne({ _id: 'bot-runner.timers' });
    expect(lease?.owner).toBe('b');
  });

  test('when both runners decided the same post (a lease handed over mid-round), then the claim lets one through', async () => {
    await addTimer('Follow!', 5);
    await goLive();
    clock.advance(5 * minute);
    const repo = channels();
    const read = await repo.get(owner);
    if (!read) throw new Error('no channel');
    const timer = { createdAtMs: 0, id: 't' };
    const post = { id: 'p', timerId: 't', broadcasterUserId: channel, content: 'x', occurredAt: clock.now() };

    const first = await repo.claimPost(read, post, timer, clock.now().getTime());
    const second = await repo.claimPost(read, { ...post, id: 'q' }, timer, clock.now().getTime());

    expect([first?.posts, second]).toEqual([1, null]);
  });

  test('when a runner restarts, then the schedule goes on from the store', async () => {
    await addTimer('one', 5);
    await addTimer('two', 5);
    await goLive();
    const before = aRunner('a');
    clock.advance(5 * minute);
    await before.tick();
    await before.stop();

    const after = aRunner('a2');
    clock.advance(5 * minute);
    await after.tick();

    expect(posted()).toEqual(['one', 'two']);
  });
});
