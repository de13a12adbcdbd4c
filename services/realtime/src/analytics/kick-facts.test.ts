import { kickFactFrom } from './kick-facts';

const broadcaster = { is_anonymous: false, user_id: 4377088, username: 'some_streamer' };

describe('kickFactFrom', () => {
  test('when a follow, a new subscription or a renewal comes, then each is one of its kind', () => {
    const body = JSON.stringify({ broadcaster, follower: { username: 'new_fan' } });
    expect(kickFactFrom('channel.followed', body)).toEqual({ kind: 'follow' });
    expect(kickFactFrom('channel.subscription.new', JSON.stringify({ broadcaster, duration: 1 }))).toEqual({
      kind: 'subscription',
    });
    expect(kickFactFrom('channel.subscription.renewal', JSON.stringify({ broadcaster, duration: 7 }))).toEqual({
      kind: 'subscription',
    });
  });

  test('when subscriptions are gifted, then one is counted per giftee (anonymous gifter too)', () => {
    const body = JSON.stringify({
      broadcaster,
      gifter: { is_anonymous: true, user_id: null, username: null },
      giftees: [{ username: 'a' }, { username: 'b' }, { username: 'c' }, { username: 'd' }, { username: 'e' }],
    });
    expect(kickFactFrom('channel.subscription.gifts', body)).toEqual({ kind: 'gifted-subscriptions', count: 5 });
  });

  test('when Kicks are gifted, then the amount is counted, also when Kick sends it as a string', () => {
    expect(kickFactFrom('kicks.gifted', JSON.stringify({ gift: { amount: 100 } }))).toEqual({
      kind: 'kicks',
      amount: 100,
    });
    expect(kickFactFrom('kicks.gifted', JSON.stringify({ gift: { amount: '25' } }))).toEqual({
      kind: 'kicks',
      amount: 25,
    });
    expect(kickFactFrom('kicks.gifted', JSON.stringify({ gift: null }))).toBeNull();
  });

  test('when the stream goes live and ends, then both name the same start, the end its end', () => {
    const live = {
      broadcaster,
      is_live: true,
      title: 'ranked grind',
      started_at: '2026-03-02T18:00:04Z',
      ended_at: null,
    };
    expect(kickFactFrom('livestream.status.updated', JSON.stringify(live))).toEqual({
      kind: 'stream-status',
      startedAt: new Date('2026-03-02T18:00:04Z'),
      isLive: true,
      endedAt: null,
      title: 'ranked grind',
    });
    const ended = { ...live, is_live: false, ended_at: '2026-03-02T21:00:00+01:00' };
    expect(kickFactFrom('livestream.status.updated', JSON.stringify(ended))).toEqual({
      kind: 'stream-status',
      startedAt: new Date('2026-03-02T18:00:04Z'),
      isLive: false,
      endedAt: new Date('2026-03-02T20:00:00Z'),
      title: 'ranked grind',
    });
  });

  test('when the title changes, then the new title is the fact; without a title there is none', () => {
    const body = { broadcaster, metadata: { title: 'road to top 500', category: null } };
    expect(kickFactFrom('livestream.metadata.updated', JSON.stringify(body))).toEqual({
      kind: 'title',
      title: 'road to top 500',
    });
    expect(kickFactFrom('livestream.metadata.updated', JSON.stringify({ metadata: null }))).toBeNull();
  });

  test('when the body is not JSON, an array, or of a type not counted, then nothing is counted', () => {
    expect(kickFactFrom('channel.followed', '{oops')).toBeNull();
    expect(kickFactFrom('channel.followed', '[]')).toBeNull();
    expect(kickFactFrom('moderation.banned', JSON.stringify({ broadcaster }))).toBeNull();
    expect(kickFactFrom('livestream.status.updated', JSON.stringify({ is_live: true, started_at: 'soon' }))).toBeNull();
  });
});
