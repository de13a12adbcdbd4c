import { randomUUID } from 'node:crypto';
import { kickstandTopics, type KickstandTopics } from '@kickstand/platform/bus';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import {
  createFakeClock,
  createTestPlatform,
  eventually,
  recordPublished,
  type RecordedBus,
  type TestPlatform,
} from '@kickstand/platform/testing';
import { timestampFromDate } from '@kickstand/proto';
import { createBotRunnerService } from './service';
import {
  aRunningTestStreamer,
  aTestStreamer,
  eventHeader,
  type StreamerWorld,
  type TestStreamer,
} from './testing/streamers';

// Event messages (issue 20 items 1 and 2) through a running service: kick.event in, chat.send out.

const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
let platform: TestPlatform;
let recorded: RecordedBus<KickstandTopics>;
let running: RunningService;
const windowMs = 50;
const create = () =>
  createBotRunnerService({ ...platform, bus: recorded.bus }, { instanceId: 'one', eventBatchWindowMs: windowMs });
const baseUrl = () => `http://127.0.0.1:${running.port}`;

beforeAll(async () => {
  platform = await createTestPlatform('bot-runner', { clock });
  recorded = recordPublished(platform.bus, kickstandTopics);
  running = await startHttpService(create(), { port: 0 });
});

afterAll(async () => {
  await running.stop();
  await platform.close();
});

type Streamer = TestStreamer;
// a getter: the platform is made in beforeAll, after this line runs
const world: StreamerWorld = {
  get platform() {
    return platform;
  },
  clock,
  baseUrl,
};
const aStreamer = () => aTestStreamer(world);
const header = () => eventHeader(world);
const aRunningStreamer = (name: string, response: string) => aRunningTestStreamer(world, name, response);

function kickEvent(
  streamer: Streamer,
  eventType: string,
  payload: unknown,
  at: Date,
  kickMessageId: string = randomUUID(),
) {
  return platform.bus.publish('kick.event', streamer.broadcasterId, {
    ...header(),
    kickMessageId,
    subscriptionId: 'sub-1',
    eventType,
    eventVersion: '1',
    messageTimestamp: timestampFromDate(at),
    broadcasterUserId: streamer.broadcasterId,
    ownerUserId: streamer.id,
    payloadJson: JSON.stringify(payload),
  });
}

const sentBy = (streamer: Streamer) =>
  recorded.published('chat.send').filter((message) => message.ownerUserId === streamer.id);

describe('event messages through the bus', () => {
  test('when 20 follows arrive at once (one of them twice), then one line thanks them, once', async () => {
    const streamer = await aRunningStreamer('hi', 'hello');
    for (let i = 0; i < 20; i += 1) {
      await kickEvent(streamer, 'channel.followed', { follower: { username: `fan${i}` } }, clock.now(), `01FOLLOW${i}`);
    }
    await kickEvent(streamer, 'channel.followed', { follower: { username: 'fan0' } }, clock.now(), '01FOLLOW0');
    await eventually(async () => {
      const doc = await platform.store.collection<{ _id: string; pendingThanks?: unknown[] }>('channels').findOne({
        _id: streamer.id,
      });
      expect(doc?.pendingThanks).toHaveLength(20);
    });

    clock.advance(windowMs);

    await eventually(() =>
      expect(sentBy(streamer).map((message) => message.content)).toEqual(['Thanks to 20 new followers!']),
    );
    expect(sentBy(streamer)[0]?.broadcasterUserId).toBe(streamer.broadcasterId);
  });

  test('when a single sub arrives, then its template thanks the subscriber', async () => {
    const streamer = await aRunningStreamer('hi', 'hello');
    await kickEvent(
      streamer,
      'channel.subscription.renewal',
      { subscriber: { username: 'loyal' }, duration: 7 },
      clock.now(),
    );
    await eventually(async () =>
      expect(
        (
          await platform.store
            .collection<{ _id: string; pendingThanks?: unknown[] }>('channels')
            .findOne({ _id: streamer.id })
        )?.pendingThanks,
      ).toHaveLength(1),
    );
    clock.advance(windowMs);

    await eventually(() =>
      expect(sentBy(streamer).map((message) => message.content)).toEqual(['Thanks for 7 months, loyal!']),
    );
  });

  test('when the streamer switches the go-live message on, then going live posts it once and GET /api/stream shows the stream', async () => {
    const streamer = await aRunningStreamer('hi', 'hello');
    const saved = await streamer.send('PUT', '/api/event-messages', {
      live: { enabled: true, template: 'Live now: {title}' },
    });
    expect([saved.status, saved.body.message]).toEqual([200, 'Event messages saved.']);

    const live = { is_live: true, title: 'ranked grind', started_at: '2026-03-02T17:59:00Z', ended_at: null };
    await kickEvent(streamer, 'livestream.status.updated', live, clock.now(), '01LIVE');
    await kickEvent(streamer, 'livestream.status.updated', live, clock.now(), '01LIVE');

    await eventually(() =>
      expect(sentBy(streamer).map((message) => message.content)).toEqual(['Live now: ranked grind']),
    );
    const stream = await streamer.send('GET', '/api/stream');
    expect(stream.body.data).toEqual({
      isLive: true,
      title: 'ranked grind',
      game: '',
      startedAt: '2026-03-02T17:59:00.000Z',
    });
  });
});

describe('GET and PUT /api/event-messages', () => {
  test('when nothing was saved, then every kind shows its default, follows and subscriptions on', async () => {
    const streamer = aStreamer();
    const answer = await streamer.send('GET', '/api/event-messages');
    const data = answer.body.data as { kind: string; enabled: boolean; template: string }[];
    expect(data.map(({ kind, enabled }) => [kind, enabled])).toEqual([
      ['follow', true],
      ['subscription', true],
      ['renewal', true],
      ['gifted-subs', true],
      ['kicks', false],
      ['reward', false],
      ['live', false],
      ['offline', false],
    ]);
    expect(data[0]?.template).toBe('Thanks for the follow, {user}!');
  });

  test('when a template uses a variable its event lacks, then 400 names it and nothing is saved', async () => {
    const streamer = aStreamer();
    const answer = await streamer.send('PUT', '/api/event-messages', {
      follow: { enabled: true, template: 'Thanks {user} for {amount}' },
    });
    expect([answer.status, answer.body.error]).toEqual([
      400,
      'The follow message cannot use {amount}; it can use {user}.',
    ]);
    const after = await streamer.send('GET', '/api/event-messages');
    expect((after.body.data as { template: string }[])[0]?.template).toBe('Thanks for the follow, {user}!');
  });

  test('when one kind is saved, then it changes and the others stay', async () => {
    const streamer = aStreamer();
    const answer = await streamer.send('PUT', '/api/event-messages', {
      kicks: { enabled: true, template: '{user} sent {amount} Kicks' },
    });
    const data = answer.body.data as { kind: string; enabled: boolean; template: string }[];
    expect(data.find(({ kind }) => kind === 'kicks')).toMatchObject({
      enabled: true,
      template: '{user} sent {amount} Kicks',
    });
    expect(data.find(({ kind }) => kind === 'follow')).toMatchObject({
      enabled: true,
      template: 'Thanks for the follow, {user}!',
    });
  });
});
