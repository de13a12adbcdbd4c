import type { TopicMessage } from '@kickstand/platform/bus';
import { createFakeClock, createTestPlatform, type TestPlatform } from '@kickstand/platform/testing';
import { createSilentLogger } from '@kickstand/platform/log';
import { timestampFromDate } from '@kickstand/proto';
import { createChannelsRepository } from './channels';
import { metadataUpdateOf, onKickEvent, statusUpdateOf } from './stream-events';

const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));

function kickEvent(eventType: string, payload: unknown, at = clock.now()): TopicMessage<'kick.event'> {
  return {
    $typeName: 'kickstand.events.v1.KickEvent',
    eventId: 'e1',
    kickMessageId: 'k1',
    subscriptionId: 's1',
    eventType,
    eventVersion: '1',
    messageTimestamp: timestampFromDate(at),
    broadcasterUserId: '4377088',
    ownerUserId: 'u1',
    payloadJson: typeof payload === 'string' ? payload : JSON.stringify(payload),
  } as TopicMessage<'kick.event'>;
}

const atMs = Date.parse('2026-03-02T18:05:00Z');

describe('livestream event bodies', () => {
  test('when the stream went live, then it is live since started_at with its title', () => {
    const event = kickEvent('livestream.status.updated', {
      is_live: true,
      title: 'ranked grind',
      started_at: '2026-03-02T18:00:04+00:00',
      ended_at: null,
    });
    expect(statusUpdateOf(event, atMs)).toEqual({
      isLive: true,
      startedAtMs: Date.parse('2026-03-02T18:00:04Z'),
      title: 'ranked grind',
    });
  });

  test('when a live event has no usable started_at, then the stream counts from the message time', () => {
    const event = kickEvent('livestream.status.updated', { is_live: true, started_at: 'not a date' });
    expect(statusUpdateOf(event, atMs)).toEqual({ isLive: true, startedAtMs: atMs, title: undefined });
  });

  test('when the stream ended, then it is offline', () => {
    const event = kickEvent('livestream.status.updated', { is_live: false, title: 't', started_at: null });
    expect(statusUpdateOf(event, atMs)).toEqual({ isLive: false, startedAtMs: null, title: 't' });
  });

  test('when the metadata changed, then title and category name are read (lowercase key)', () => {
    const event = kickEvent('livestream.metadata.updated', {
      metadata: { title: 'road to top 500', category: { id: 15, name: 'Just Chatting' }, Category: { name: 'x' } },
    });
    expect(metadataUpdateOf(event)).toEqual({ title: 'road to top 500', game: 'Just Chatting' });
  });

  test('when the category is null (seen on the live service), then only the title is read', () => {
    expect(
      metadataUpdateOf(kickEvent('livestream.metadata.updated', { metadata: { title: 't', category: null } })),
    ).toEqual({ title: 't', game: undefined });
  });

  test('when the body does not fit or the type is another, then nothing is read', () => {
    expect(statusUpdateOf(kickEvent('livestream.status.updated', '{not json'), atMs)).toBeUndefined();
    expect(statusUpdateOf(kickEvent('livestream.status.updated', { title: 'no is_live' }), atMs)).toBeUndefined();
    expect(statusUpdateOf(kickEvent('channel.followed', { is_live: true }), atMs)).toBeUndefined();
    expect(metadataUpdateOf(kickEvent('livestream.metadata.updated', { nothing: 1 }))).toBeUndefined();
  });
});

describe('onKickEvent', () => {
  let platform: TestPlatform;

  beforeEach(async () => {
    platform = await createTestPlatform('bot-runner', { clock });
  });

  afterEach(async () => {
    await platform.close();
  });

  test('when an older status arrives after a newer one (Kick does not order deliveries), then the newer stays', async () => {
    const channels = createChannelsRepository(platform.store);
    const handle = onKickEvent({
      channels,
      scheduler: { countLine: () => undefined, flushPosts: () => Promise.resolve() },
      clock,
      log: createSilentLogger(),
    });
    const start = new Date('2026-03-02T18:00:00Z');
    const end = new Date('2026-03-02T20:00:00Z');

    await handle(kickEvent('livestream.status.updated', { is_live: false, started_at: start.toISOString() }, end));
    await handle(kickEvent('livestream.status.updated', { is_live: true, started_at: start.toISOString() }, start));

    expect(await channels.stream('u1', '4377088')).toEqual({ isLive: false, startedAtMs: null, title: '', game: '' });
  });

  test('when status and metadata arrive, then the stream shows both', async () => {
    const channels = createChannelsRepository(platform.store);
    const handle = onKickEvent({
      channels,
      scheduler: { countLine: () => undefined, flushPosts: () => Promise.resolve() },
      clock,
      log: createSilentLogger(),
    });

    await handle(
      kickEvent('livestream.status.updated', { is_live: true, title: 'a', started_at: '2026-03-02T18:00:00Z' }),
    );
    await handle(kickEvent('livestream.metadata.updated', { metadata: { title: 'b', category: { name: 'Dota 2' } } }));

    expect(await channels.stream('u1', '4377088')).toEqual({
      isLive: true,
      startedAtMs: Date.parse('2026-03-02T18:00:00Z'),
      title: 'b',
      game: 'Dota 2',
    });
    expect(await channels.stream('u1', '999')).toBeUndefined();
  });
});
