import { kickstandTopics, type TopicMessage } from '@kickstand/platform/bus';
import { createSilentLogger } from '@kickstand/platform/log';
import { createFakeClock, createTestPlatform, recordPublished, type TestPlatform } from '@kickstand/platform/testing';
import { ChatOrigin, timestampFromDate } from '@kickstand/proto';
import { createChannelsRepository } from './channels';
import { createEventPoster, type EventPoster } from './event-poster';
import { createEventSettingsRepository } from './event-settings';
import { onKickEvent } from './stream-events';
import { createLease } from './lease';
import { createTimerScheduler, type TimerScheduler } from './timer-scheduler';
import type { TimerBot } from './timer-schedule';
import { createTimersRepository } from './timers';

const windowMs = 5_000;
const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
const owner = 'u-events';
const channel = '4377088';
let platform: TestPlatform;
let recorded: ReturnType<typeof recordPublished<typeof kickstandTopics>>;
let bot: TimerBot | undefined;
const started: EventPoster[] = [];

beforeEach(async () => {
  clock.set(new Date('2026-03-02T18:00:00Z'));
  platform = await createTestPlatform('bot-runner', { clock });
  recorded = recordPublished(platform.bus, kickstandTopics);
  bot = { isRunning: true, broadcasterUserId: channel };
});

afterEach(async () => {
  for (const poster of started.splice(0)) poster.stop();
  await platform.close();
});

/** One bot-runner instance's event poster and kick.event handler over the shared store. */
function anInstance(): { poster: EventPoster; handle: (message: TopicMessage<'kick.event'>) => Promise<void> } {
  const channels = createChannelsRepository(platform.store);
  const scheduler: TimerScheduler = createTimerScheduler({
    channels,
    timers: createTimersRepository(platform.store),
    botOf: () => bot,
    bus: recorded.bus,
    lease: createLease({ store: platform.store, name: 'bot-runner.timers', owner: 'x', ttlMs: 45_000, clock }),
    clock,
    log: createSilentLogger(),
    minuteMs: 60_000,
    tickMs: 15_000,
  });
  const poster = createEventPoster({
    channels,
    settings: createEventSettingsRepository(platform.store),
    botOf: (userId) => (userId === owner ? bot : undefined),
    posts: scheduler,
    clock,
    log: createSilentLogger(),
    windowMs,
  });
  started.push(poster);
  const handle = onKickEvent({ channels, scheduler, poster, clock, log: createSilentLogger() });
  return { poster, handle };
}

let sequence = 0;
function kickEvent(eventType: string, body: unknown, kickMessageId = `01MSG${(sequence += 1)}`) {
  return {
    eventId: kickMessageId,
    kickMessageId,
    subscriptionId: 's',
    eventType,
    eventVersion: '1',
    broadcasterUserId: channel,
    ownerUserId: owner,
    messageTimestamp: timestampFromDate(clock.now()),
    payloadJson: JSON.stringify(body),
  } as TopicMessage<'kick.event'>;
}
const follow = (username: string, id?: string) =>
  kickEvent('channel.followed', { follower: { is_anonymous: false, username } }, id);
const status = (isLive: boolean, id?: string) =>
  kickEvent(
    'livestream.status.updated',
    { is_live: isLive, title: 'ranked grind', started_at: '2026-03-02T17:59:00Z', ended_at: null },
    id,
  );

const posted = () => recorded.published('chat.send').map((message) => message.content);

describe('event messages: batching', () => {
  test('when one follow arrives, then after the window one thank-you is posted as chat.send, once', async () => {
    const { poster, handle } = anInstance();
    await handle(follow('new_fan'));

    clock.advance(windowMs - 1);
    await poster.flushDue();
    expect(posted()).toEqual([]);

    clock.advance(1);
    await poster.flushDue();
    await poster.flushDue();

    const sent = recorded.publishedWithKeys('chat.send');
    expect(sent.map(({ key, message }) => [key, message.content, message.ownerUserId, message.origin])).toEqual([
      [channel, 'Thanks for the follow, new_fan!', owner, ChatOrigin.SYSTEM],
    ]);
    expect(sent[0]?.message.idempotencyKey).toBe(`event:${owner}:1:follow`);
  });

  test('when 20 follows arrive within the window, then one line thanks them all', async () => {
    const { poster, handle } = anInstance();
    for (let i = 0; i < 20; i += 1) {
      await handle(follow(`fan${i}`));
      clock.advance(100);
    }

    clock.advance(windowMs);
    await poster.flushDue();

    expect(posted()).toEqual(['Thanks to 20 new followers!']);
  });

  test('when Kick delivers a follow twice (also after its batch was posted), then it is thanked once', async () => {
    const { poster, handle } = anInstance();
    await handle(follow('new_fan', '01SAME'));
    await handle(follow('new_fan', '01SAME'));
    clock.advance(windowMs);
    await poster.flushDue();
    await handle(follow('new_fan', '01SAME'));
    clock.advance(windowMs);
    await poster.flushDue();

    expect(posted()).toEqual(['Thanks for the follow, new_fan!']);
  });

  test('when the instance restarts with a batch waiting, then the next one posts it once', async () => {
    const first = anInstance();
    await first.handle(follow('a'));
    await first.handle(follow('b'));
    first.poster.stop(); // a crash: nothing was posted

    clock.advance(windowMs);
    const second = anInstance();
    await second.poster.start();
    await second.poster.flushDue();
    await first.poster.flushDue();

    expect(posted()).toEqual(['Thanks to 2 new followers!']);
  });

  test('when the kind is switched off or the bot does not run, then nothing is batched', async () => {
    const { poster, handle } = anInstance();
    await createEventSettingsRepository(platform.store).save(
      owner,
      { follow: { enabled: false, template: 'x {user}' } },
      0,
    );
    await handle(follow('a'));
    bot = { isRunning: false, broadcasterUserId: channel };
    await handle(kickEvent('channel.subscription.new', { subscriber: { username: 'b' }, duration: 1 }));
    clock.advance(windowMs);
    await poster.flushDue();

    expect(posted()).toEqual([]);
  });

  test('when the streamer edited a template, then the line uses it', async () => {
    const { poster, handle } = anInstance();
    await createEventSettingsRepository(platform.store).save(
      owner,
      { 'gifted-subs': { enabled: true, template: '{user} gifted {count}!' } },
      0,
    );
    await handle(kickEvent('channel.subscription.gifts', { gifter: null, giftees: [{}, {}, {}, {}, {}] }));
    clock.advance(windowMs);
    await poster.flushDue();

    expect(posted()).toEqual(['Anonymous gifted 5!']);
  });
});

describe('event messages: go-live and offline', () => {
  async function turnOn(): Promise<void> {
    await createEventSettingsRepository(platform.store).save(
      owner,
      {
        live: { enabled: true, template: 'Live: {title} / {game}' },
        offline: { enabled: true, template: 'Bye! ({title})' },
      },
      0,
    );
  }

  test('when the stream starts and ends, then one message each, and a repeated delivery says nothing', async () => {
    const { handle } = anInstance();
    await turnOn();
    await createChannelsRepository(platform.store).applyMetadata(
      owner,
      channel,
      { title: undefined, game: 'Dota 2' },
      0,
    );

    await handle(status(true, '01LIVE'));
    await handle(status(true, '01LIVE'));
    clock.advance(60_000);
    await handle(status(false, '01END'));
    await handle(status(false, '01END'));

    expect(posted()).toEqual(['Live: ranked grind / Dota 2', 'Bye! (ranked grind)']);
    expect(recorded.published('chat.send').map((message) => message.idempotencyKey)).toEqual([
      `stream:${owner}:live:01LIVE`,
      `stream:${owner}:offline:01END`,
    ]);
  });

  test('when the messages are off (the default), then the status is still applied and nothing is said', async () => {
    const { handle } = anInstance();
    await handle(status(true));

    expect(posted()).toEqual([]);
    expect((await createChannelsRepository(platform.store).get(owner))?.isLive).toBe(true);
  });

  test('when an older "live" arrives after the end, then it announces nothing', async () => {
    const { handle } = anInstance();
    await turnOn();
    const late = status(true, '01LATE');
    clock.advance(1000);
    await handle(status(false, '01END'));
    await handle(late);

    expect(posted()).toEqual([]);
  });
});
