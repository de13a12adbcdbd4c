import { aChatMessage } from '../../testing/fixtures';
import type { ChannelEvent } from '../../lib/socket-events';
import { channelEventText, lineId, mergeChatLines } from './chat-lines';

const at = (minute: number) => `2025-03-01T20:${String(minute).padStart(2, '0')}:00.000Z`;
const base = { id: 'e', timestamp: at(0), username: 'generous' };

describe('channel event text', () => {
  test.each<[string, ChannelEvent, string]>([
    [
      'KICKs with a message',
      { ...base, kind: 'kicks-gifted', amount: 100, giftName: 'Rage Quit', message: 'gg' },
      '🎁 generous gifted 100 KICKs: gg',
    ],
    [
      'one KICK, no message',
      { ...base, kind: 'kicks-gifted', amount: 1, giftName: '', message: '' },
      '🎁 generous gifted 1 KICK',
    ],
    [
      'a redemption with input',
      {
        ...base,
        username: 'viewer',
        kind: 'reward-redeemed',
        reward: 'Song request',
        cost: 500,
        input: 'play it',
        status: 'pending',
      },
      '🎯 viewer redeemed Song request (500): play it',
    ],
    [
      'an accepted redemption without cost or input',
      {
        ...base,
        username: 'viewer',
        kind: 'reward-redeemed',
        reward: 'Hydrate',
        cost: null,
        input: '',
        status: 'accepted',
      },
      '🎯 viewer redeemed Hydrate — accepted',
    ],
    ['a follow', { ...base, username: 'new_fan', kind: 'followed' }, '❤️ new_fan followed'],
    ['a first subscription', { ...base, kind: 'subscribed', months: 1 }, '⭐ generous subscribed'],
    ['a renewal', { ...base, kind: 'resubscribed', months: 7 }, '⭐ generous resubscribed (7 months)'],
    ['an anonymous sub gift', { ...base, username: null, kind: 'subs-gifted', count: 2 }, '🎁 Anonymous gifted 2 subs'],
  ])('when the event is %s, then the line reads as expected', (_name, event, text) => {
    expect(channelEventText(event)).toBe(text);
  });
});

describe('merging messages and event lines', () => {
  test('when events fall between messages, then each goes after the messages not newer than it', () => {
    const m1 = aChatMessage({ id: 'm1', timestamp: at(1) });
    const m2 = aChatMessage({ id: 'm2', timestamp: at(3) });
    const events: ChannelEvent[] = [
      { ...base, id: 'late', kind: 'followed', timestamp: at(5) },
      { ...base, id: 'between', kind: 'followed', timestamp: at(2) },
      { ...base, id: 'same-time', kind: 'followed', timestamp: at(1) },
    ];

    expect(mergeChatLines([m1, m2], events).map(lineId)).toEqual(['m1', 'same-time', 'between', 'm2', 'late']);
  });

  test('when there are more than 100 lines of both kinds, then the newest 100 are kept', () => {
    const messages = Array.from({ length: 60 }, (_, i) => aChatMessage({ id: `m${i}`, timestamp: at(i % 60) }));
    const events: ChannelEvent[] = Array.from({ length: 50 }, (_, i) => ({
      ...base,
      id: `e${i}`,
      kind: 'followed',
      timestamp: '2025-03-01T21:00:00.000Z',
    }));

    const lines = mergeChatLines(messages, events);

    expect(lines).toHaveLength(100);
    expect(lineId(lines[0] ?? { kind: 'event', event: events[0] as ChannelEvent })).toBe('m10');
    expect(lineId(lines[99] ?? { kind: 'event', event: events[0] as ChannelEvent })).toBe('e49');
  });
});
