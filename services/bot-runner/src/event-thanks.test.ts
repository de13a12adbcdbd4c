import { eventMessageDefaults, eventMessagesBodySchema } from '@kickstand/api-contract';
import type { TopicMessage } from '@kickstand/platform/bus';
import { batchLines, fillTemplate, thanksOf, type PendingThanks, type ThanksKind } from './event-thanks';

const event = (eventType: string, body: unknown, kickMessageId = '01KICKMESSAGE'): TopicMessage<'kick.event'> =>
  ({
    eventId: kickMessageId,
    kickMessageId,
    subscriptionId: 's',
    eventType,
    eventVersion: '1',
    broadcasterUserId: '4377088',
    ownerUserId: 'u1',
    payloadJson: JSON.stringify(body),
  }) as TopicMessage<'kick.event'>;

const someone = (username: string) => ({ is_anonymous: false, user_id: 1, username });
const defaults = (kind: ThanksKind) => ({ ...eventMessageDefaults[kind], enabled: true });

describe('thanksOf', () => {
  test('when a follow arrives, then the follower is thanked, keyed by Kick’s message id', () => {
    expect(thanksOf(event('channel.followed', { follower: someone('new_fan') }), 5)).toEqual({
      key: '01KICKMESSAGE',
      kind: 'follow',
      atMs: 5,
      user: 'new_fan',
      months: 0,
      count: 0,
      amount: 0,
      reward: '',
    });
  });

  test('when a renewal arrives, then its months are the duration', () => {
    const thanks = thanksOf(
      event('channel.subscription.renewal', { subscriber: someone('loyal_one'), duration: 7 }),
      0,
    );
    expect([thanks?.kind, thanks?.user, thanks?.months]).toEqual(['renewal', 'loyal_one', 7]);
  });

  test('when subscriptions are gifted anonymously, then the gifter is "Anonymous" and the count is the giftees', () => {
    const anonymous = { is_anonymous: true, user_id: null, username: null };
    const thanks = thanksOf(
      event('channel.subscription.gifts', { gifter: anonymous, giftees: [someone('a'), someone('b'), someone('c')] }),
      0,
    );
    expect([thanks?.kind, thanks?.user, thanks?.count]).toEqual(['gifted-subs', 'Anonymous', 3]);
    expect(thanksOf(event('channel.subscription.gifts', { gifter: null, giftees: [] }), 0)?.user).toBe('Anonymous');
  });

  test('when Kicks are gifted, then the amount is read (also as a string)', () => {
    const thanks = thanksOf(event('kicks.gifted', { sender: { username: 'rich' }, gift: { amount: '500' } }), 0);
    expect([thanks?.kind, thanks?.user, thanks?.amount]).toEqual(['kicks', 'rich', 500]);
  });

  test('when a reward is redeemed, then it is keyed by the redemption (each status is one event) and a rejected one is not thanked', () => {
    const body = { id: 'r-1', status: 'pending', redeemer: someone('fan'), reward: { title: 'Hydrate' } };
    const thanks = thanksOf(event('channel.reward.redemption.updated', body), 0);
    expect([thanks?.kind, thanks?.key, thanks?.user, thanks?.reward]).toEqual([
      'reward',
      'reward:r-1',
      'fan',
      'Hydrate',
    ]);
    expect(thanksOf(event('channel.reward.redemption.updated', { ...body, status: 'rejected' }), 0)).toBeNull();
  });

  test('when the event is not thanked or its body is no object, then nothing', () => {
    expect(thanksOf(event('moderation.banned', { banned_user: someone('x') }), 0)).toBeNull();
    expect(thanksOf({ ...event('channel.followed', {}), payloadJson: 'not json' }, 0)).toBeNull();
  });
});

describe('fillTemplate', () => {
  test('when a template has variables, then each is filled in', () => {
    expect(fillTemplate('Thanks for {months} months, {user}!', { user: 'loyal_one', months: 7 })).toBe(
      'Thanks for 7 months, loyal_one!',
    );
  });
});

describe('batchLines', () => {
  const pending = (kind: ThanksKind, n: number, extra: Partial<PendingThanks> = {}): PendingThanks[] =>
    Array.from({ length: n }, (_, i) => ({
      key: `${kind}-${i}`,
      kind,
      atMs: i,
      user: `viewer${i}`,
      months: 0,
      count: 0,
      amount: 0,
      reward: '',
      ...extra,
    }));

  test('when one event of a kind is waiting, then it is thanked with the template', () => {
    expect(batchLines(pending('follow', 1), defaults)).toEqual([
      { kind: 'follow', content: 'Thanks for the follow, viewer0!' },
    ]);
  });

  test('when 20 follows are waiting, then they become one line', () => {
    expect(batchLines(pending('follow', 20), defaults)).toEqual([
      { kind: 'follow', content: 'Thanks to 20 new followers!' },
    ]);
  });

  test('when several kinds are waiting, then one line per kind, gifts and Kicks summed', () => {
    const lines = batchLines(
      [
        ...pending('kicks', 2, { amount: 100 }),
        ...pending('gifted-subs', 2, { count: 5 }),
        ...pending('subscription', 1, { months: 1 }),
      ],
      defaults,
    );
    expect(lines).toEqual([
      { kind: 'subscription', content: 'Thanks for subscribing, viewer0!' },
      { kind: 'gifted-subs', content: 'Thanks for 10 gifted subs!' },
      { kind: 'kicks', content: 'Thanks for 200 Kicks!' },
    ]);
  });

  test('when a kind was switched off since its events arrived, then it says nothing', () => {
    expect(batchLines(pending('follow', 3), (kind) => ({ ...defaults(kind), enabled: false }))).toEqual([]);
  });
});

describe('event message validation (the contract)', () => {
  const problem = (body: unknown) => {
    const result = eventMessagesBodySchema.safeParse(body);
    return result.success ? null : result.error.issues[0]?.message;
  };

  test('when a template uses a variable its event has, then it is accepted', () => {
    expect(problem({ renewal: { enabled: true, template: '{user}: {months} months!' } })).toBeNull();
  });

  test('when a template uses a variable its event does not have, then it is refused, naming the ones it can use', () => {
    expect(problem({ follow: { enabled: true, template: 'Thanks {user} for {months} months' } })).toBe(
      'The follow message cannot use {months}; it can use {user}.',
    );
    expect(problem({ live: { enabled: true, template: 'Live: {nme}' } })).toBe(
      'The go-live message cannot use {nme}; it can use {title} {game}.',
    );
  });

  test('when a template is empty or longer than 500 characters, then it is refused', () => {
    expect(problem({ follow: { enabled: true, template: '  ' } })).toBe('The message is required.');
    expect(problem({ follow: { enabled: true, template: 'x'.repeat(501) } })).toBe(
      'The message must be 500 characters or less.',
    );
    expect(problem({ follow: { enabled: true, template: 'x'.repeat(500) } })).toBeNull();
  });

  test('when the body names an unknown event, then it is refused', () => {
    expect(problem({ raid: { enabled: true, template: 'x' } })).toMatch(/raid/);
  });
});
