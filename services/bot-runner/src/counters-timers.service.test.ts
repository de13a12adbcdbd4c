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

// The doors of the named counters, the stream variables and the timers, through a running service.

const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
let platform: TestPlatform;
let recorded: RecordedBus<KickstandTopics>;
let running: RunningService;
const create = () => createBotRunnerService({ ...platform, bus: recorded.bus }, { instanceId: 'one' });
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

async function chat(streamer: Streamer, content: string, messageId: string = randomUUID()): Promise<string> {
  await platform.bus.publish('chat.received', streamer.broadcasterId, {
    ...header(),
    kickMessageId: `01K${randomUUID()}`,
    messageId,
    broadcasterUserId: streamer.broadcasterId,
    broadcasterUsername: 'some_streamer',
    broadcasterChannelSlug: 'some_streamer',
    ownerUserId: streamer.id,
    sender: { userId: '777', username: 'viewer_one', channelSlug: 'viewer_one' },
    content,
    receivedAt: timestampFromDate(clock.now()),
    isFromBot: false,
  });
  return messageId;
}

async function replyTo(streamer: Streamer, messageId: string): Promise<string> {
  let content: string | undefined;
  await eventually(() => {
    content = recorded
      .published('chat.send')
      .find((message) => message.ownerUserId === streamer.id && message.replyToMessageId === messageId)?.content;
    expect(content).toBeDefined();
  });
  return content ?? '';
}

function kickEvent(streamer: Streamer, eventType: string, payload: unknown, at: Date) {
  return platform.bus.publish('kick.event', streamer.broadcasterId, {
    ...header(),
    kickMessageId: randomUUID(),
    subscriptionId: 'sub-1',
    eventType,
    eventVersion: '1',
    messageTimestamp: timestampFromDate(at),
    broadcasterUserId: streamer.broadcasterId,
    ownerUserId: streamer.id,
    payloadJson: JSON.stringify(payload),
  });
}

describe('named counters in responses', () => {
  test('when viewers run a command with {counter:deaths+1}, then each line adds one and the reply shows the new value', async () => {
    const streamer = await aRunningStreamer('death', 'Deaths: {counter:deaths+1}');

    const first = await chat(streamer, '$death');
    expect(await replyTo(streamer, first)).toBe('Deaths: 1');
    clock.advance(2000); // past the command's cooldown
    const second = await chat(streamer, '$death');

    expect(await replyTo(streamer, second)).toBe('Deaths: 2');
  });

  test('when a line reaches a restarted bot-runner again, then the counter is not changed twice', async () => {
    const streamer = await aRunningStreamer('death', 'Deaths: {counter:deaths+1}');
    const line = await chat(streamer, '$death');
    await replyTo(streamer, line);

    await running.stop();
    running = await startHttpService(create(), { port: 0 });
    clock.advance(2000);
    await chat(streamer, '$death', line);
    await eventually(() =>
      expect(recorded.published('chat.send').filter((message) => message.replyToMessageId === line)).toHaveLength(2),
    );

    const list = await streamer.send('GET', '/api/counters');
    expect(list.body.data).toEqual([{ name: 'deaths', value: 1, updatedAt: expect.any(String) }]);
  });
});

describe('stream variables', () => {
  test('when the channel went live and set its category, then {uptime} {game} {title} show them', async () => {
    const streamer = await aRunningStreamer('stream', '{uptime} | {game} | {title}');
    const start = clock.now();
    await kickEvent(
      streamer,
      'livestream.status.updated',
      {
        broadcaster: { user_id: Number(streamer.broadcasterId), username: 'some_streamer' },
        is_live: true,
        title: 'ranked grind',
        started_at: start.toISOString(),
        ended_at: null,
      },
      start,
    );
    await kickEvent(
      streamer,
      'livestream.metadata.updated',
      {
        broadcaster: { user_id: Number(streamer.broadcasterId), username: 'some_streamer' },
        metadata: { title: 'road to top 500', language: 'en', category: { id: 15, name: 'Just Chatting' } },
      },
      new Date(start.getTime() + 1000),
    );

    clock.advance(65 * 60_000);
    let reply = '';
    await eventually(async () => {
      clock.advance(2000);
      reply = await replyTo(streamer, await chat(streamer, '$stream'));
      expect(reply).toMatch(/\| Just Chatting \| road to top 500$/);
    });
    expect(reply).toMatch(/^1h \dm \|/);
  });

  test('when the channel has never been live, then {uptime} says offline', async () => {
    const streamer = await aRunningStreamer('up', 'Uptime: {uptime}');

    expect(await replyTo(streamer, await chat(streamer, '$up'))).toBe('Uptime: offline');
  });
});

describe('/api/counters', () => {
  test('when the streamer sets, lists, resets and deletes a counter, then each answers its message', async () => {
    const streamer = aStreamer();

    const set = await streamer.send('PUT', '/api/counters/Deaths', { value: 5 });
    expect(set).toEqual({
      status: 200,
      body: {
        success: true,
        message: 'Counter "deaths" set to 5.',
        data: { name: 'deaths', value: 5, updatedAt: clock.now().toISOString() },
      },
    });
    expect((await streamer.send('GET', '/api/counters')).body.data).toEqual([
      { name: 'deaths', value: 5, updatedAt: clock.now().toISOString() },
    ]);
    const reset = await streamer.send('POST', '/api/counters/deaths/reset');
    expect([reset.status, reset.body.message]).toEqual([200, 'Counter "deaths" reset to 0.']);
    const removed = await streamer.send('DELETE', '/api/counters/deaths');
    expect([removed.status, removed.body.message]).toEqual([200, 'Counter "deaths" deleted.']);
    expect((await streamer.send('GET', '/api/counters')).body.data).toEqual([]);
  });

  test('when the counter does not exist, then reset and delete answer 404', async () => {
    const streamer = aStreamer();

    const answers = [
      await streamer.send('POST', '/api/counters/nope/reset'),
      await streamer.send('DELETE', '/api/counters/nope'),
    ];

    expect(answers.map(({ status, body }) => [status, body.error])).toEqual([
      [404, 'Counter "nope" not found.'],
      [404, 'Counter "nope" not found.'],
    ]);
  });

  test('when the value or the name is invalid, then 400 says why', async () => {
    const streamer = aStreamer();

    const answers = [
      await streamer.send('PUT', '/api/counters/deaths', { value: 1.5 }),
      await streamer.send('PUT', '/api/counters/deaths', { value: '3' }),
      await streamer.send('PUT', '/api/counters/bad%20name', { value: 3 }),
    ];

    expect(answers.map(({ status, body }) => [status, body.error])).toEqual([
      [400, "A counter's value is a whole number from -1000000000 to 1000000000."],
      [400, "A counter's value is a whole number from -1000000000 to 1000000000."],
      [400, 'A counter name is 1 to 30 letters, digits, hyphens or underscores.'],
    ]);
  });
});

describe('/api/timers', () => {
  test('when the streamer adds, saves, switches and deletes a timer, then each answers the timer', async () => {
    const streamer = aStreamer();

    const added = await streamer.send('POST', '/api/timers', {
      message: 'Follow!',
      intervalMinutes: 10,
      minChatLines: 5,
    });
    expect(added.status).toBe(201);
    const timer = added.body.data as { id: string };
    expect(added.body).toEqual({
      success: true,
      message: 'Timer added.',
      data: {
        id: timer.id,
        message: 'Follow!',
        intervalMinutes: 10,
        minChatLines: 5,
        enabled: true,
        createdAt: clock.now().toISOString(),
        lastPostedAt: null,
      },
    });

    const saved = await streamer.send('PUT', `/api/timers/${timer.id}`, {
      message: 'Hydrate!',
      intervalMinutes: 15,
      minChatLines: 0,
    });
    expect(saved.body).toMatchObject({
      message: 'Timer saved.',
      data: { message: 'Hydrate!', intervalMinutes: 15, minChatLines: 0, enabled: true },
    });
    const off = await streamer.send('POST', `/api/timers/${timer.id}/toggle`, { enabled: false });
    expect(off.body).toMatchObject({ message: 'Timer disabled.', data: { enabled: false } });
    expect((await streamer.send('GET', '/api/timers')).body.data).toMatchObject([{ id: timer.id, enabled: false }]);
    const removed = await streamer.send('DELETE', `/api/timers/${timer.id}`);
    expect(removed.body).toEqual({ success: true, message: 'Timer deleted.', data: { id: timer.id } });
    expect((await streamer.send('GET', '/api/timers')).body.data).toEqual([]);
  });

  test('when the input breaks a rule, then 400 says which', async () => {
    const streamer = aStreamer();
    const add = (body: unknown) => streamer.send('POST', '/api/timers', body);

    const answers = [
      await add({ message: '  ', intervalMinutes: 10, minChatLines: 0 }),
      await add({ message: 'x'.repeat(501), intervalMinutes: 10, minChatLines: 0 }),
      await add({ message: 'Hi', intervalMinutes: 4, minChatLines: 0 }),
      await add({ message: 'Hi', intervalMinutes: 1441, minChatLines: 0 }),
      await add({ message: 'Hi', intervalMinutes: 10, minChatLines: -1 }),
      await add({ message: 'Hi', intervalMinutes: 10, minChatLines: 1001 }),
      await add({ message: 'Hi', intervalMinutes: 10 }),
    ];

    expect(answers.map(({ status, body }) => [status, body.error])).toEqual([
      [400, 'Timer message is required.'],
      [400, 'Timer message must be 500 characters or less'],
      [400, 'The interval is a whole number of minutes from 5 to 1440.'],
      [400, 'The interval is a whole number of minutes from 5 to 1440.'],
      [400, 'The minimum chat lines is a whole number from 0 to 1000.'],
      [400, 'The minimum chat lines is a whole number from 0 to 1000.'],
      [400, 'The minimum chat lines is a whole number from 0 to 1000.'],
    ]);
  });

  test('when the timer is another streamer’s or unknown, then 404', async () => {
    const owner = aStreamer();
    const other = aStreamer();
    const added = await owner.send('POST', '/api/timers', { message: 'Mine', intervalMinutes: 5, minChatLines: 0 });
    const { id } = added.body.data as { id: string };

    const answers = [
      await other.send('DELETE', `/api/timers/${id}`),
      await other.send('POST', `/api/timers/${id}/toggle`, { enabled: false }),
      await owner.send('PUT', '/api/timers/unknown', { message: 'x', intervalMinutes: 5, minChatLines: 0 }),
    ];

    expect(answers.map(({ status, body }) => [status, body.error])).toEqual([
      [404, 'Timer not found.'],
      [404, 'Timer not found.'],
      [404, 'Timer not found.'],
    ]);
  });
});
