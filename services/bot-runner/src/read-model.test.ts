import { defaultCommandSettings } from '@kickstand/api-contract';
import { newBotState } from './bots';
import { createBotsView, createCooldowns, createRecentReplies } from './read-model';
import type { BotDoc } from './repository';
import type { Answer } from './dispatch';

const aDoc = (version: number, isRunning: boolean): BotDoc => ({
  _id: 'u1',
  ...newBotState(),
  kick: { broadcasterUserId: '42', username: 'k', needsRelink: false },
  isRunning,
  commands: [{ key: 'hug', command: 'Hug', response: 'hi' }],
  version,
  outbox: [],
  updatedAt: new Date(0),
});

const anAnswer: Answer = {
  kind: 'answer',
  ownerUserId: 'u1',
  commandKey: 'hug',
  command: 'Hug',
  response: 'hi',
  args: [],
  cooldowns: [{ key: '42:hug', ms: 1000 }],
};

describe('createBotsView', () => {
  test('when an older document arrives after a newer one, then the newer one stays', () => {
    const view = createBotsView();
    view.apply(aDoc(3, true));
    view.apply(aDoc(2, false));
    expect(view.get('u1')).toEqual({
      isRunning: true,
      broadcasterUserId: '42',
      commands: new Map([['hug', { key: 'hug', command: 'Hug', response: 'hi', settings: defaultCommandSettings }]]),
    });
    view.apply(aDoc(4, false));
    expect(view.get('u1')?.isRunning).toBe(false);
  });

  test('when a command has aliases, then it is found under each alias (lowercase) as itself', () => {
    const view = createBotsView();
    const settings = { ...defaultCommandSettings, aliases: ['DC', 'server'], permission: 'vips' as const };
    view.apply({
      ...aDoc(1, true),
      commands: [
        { key: 'discord', command: 'Discord', response: 'd', settings },
        { key: 'hug', command: 'Hug', response: 'hi' },
      ],
    });

    const discord = { key: 'discord', command: 'Discord', response: 'd', settings };
    expect(view.get('u1')?.commands).toEqual(
      new Map([
        ['dc', discord],
        ['server', discord],
        ['discord', discord],
        ['hug', { key: 'hug', command: 'Hug', response: 'hi', settings: defaultCommandSettings }],
      ]),
    );
  });
});

describe('createCooldowns', () => {
  test('when answers are processed, then the last send time per key is kept until the cooldown plus the skew bound has passed in processing time', () => {
    const cooldowns = createCooldowns(1000, 3000);
    cooldowns.answered('a', 100, new Date(0));
    cooldowns.answered('b', 200, new Date(500));
    cooldowns.answered('c', 300, new Date(3999));
    expect(cooldowns.lastAnsweredAtMs('a')).toBe(100);
    cooldowns.answered('c', 400, new Date(4000));
    expect(cooldowns.lastAnsweredAtMs('a')).toBeUndefined();
    expect(cooldowns.lastAnsweredAtMs('b')).toBe(200);
    expect(cooldowns.lastAnsweredAtMs('c')).toBe(400);
  });

  test('when a line sent earlier than the last answered one is answered, then the later send time stays', () => {
    const cooldowns = createCooldowns(1000);
    cooldowns.answered('a', 5000, new Date(0));
    cooldowns.answered('a', 2000, new Date(10));
    expect(cooldowns.lastAnsweredAtMs('a')).toBe(5000);
  });

  test('when a backlog of another channel with later send times is processed first, then this channel is not forgotten', () => {
    const cooldowns = createCooldowns(1000);
    cooldowns.answered('y', 1_000, new Date(60_000));
    cooldowns.answered('x', 50_000, new Date(60_001));
    expect(cooldowns.lastAnsweredAtMs('y')).toBe(1_000);
  });
});

describe('createCooldowns with cooldowns of their own', () => {
  test('when keys have different cooldowns, then each is kept for its own cooldown plus the skew bound', () => {
    const cooldowns = createCooldowns(1000, 3000);
    cooldowns.answered('long', 100, new Date(0), 60_000);
    cooldowns.answered('short', 200, new Date(10));
    cooldowns.answered('other', 300, new Date(4010));
    expect(cooldowns.lastAnsweredAtMs('short')).toBeUndefined();
    expect(cooldowns.lastAnsweredAtMs('long')).toBe(100);
    cooldowns.answered('other', 400, new Date(63_000));
    expect(cooldowns.lastAnsweredAtMs('long')).toBeUndefined();
    expect(cooldowns.lastAnsweredAtMs('other')).toBe(400);
  });

  test('when a key is answered again under another cooldown, then it holds one entry with the later send time', () => {
    const cooldowns = createCooldowns(1000, 3000);
    cooldowns.answered('a', 5000, new Date(0), 60_000);
    cooldowns.answered('a', 2000, new Date(10));
    expect(cooldowns.lastAnsweredAtMs('a')).toBe(5000);
    cooldowns.answered('b', 1, new Date(4010));
    expect(cooldowns.lastAnsweredAtMs('a')).toBeUndefined();
  });
});

describe('createCooldowns over many answers', () => {
  test('when a key is answered again, then it is kept from that answer on, not from its first', () => {
    const cooldowns = createCooldowns(1000, 3000);
    cooldowns.answered('a', 100, new Date(0));
    cooldowns.answered('a', 3100, new Date(3000));
    cooldowns.answered('b', 1, new Date(6999));
    expect(cooldowns.lastAnsweredAtMs('a')).toBe(3100);
    cooldowns.answered('b', 2, new Date(7000));
    expect(cooldowns.lastAnsweredAtMs('a')).toBeUndefined();
  });

  test('when thousands of keys are answered over and over, then each keeps its last send time until its own time is up', () => {
    const cooldowns = createCooldowns(1000, 3000);
    // 5,000 keys, each answered every 2,500 ms (kept 4,000 ms), for 10 rounds
    for (let round = 0; round < 10; round += 1) {
      for (let k = 0; k < 5000; k += 1) cooldowns.answered(`key-${k}`, round * 10 + k, new Date(round * 2500 + k / 10));
    }
    expect(cooldowns.lastAnsweredAtMs('key-0')).toBe(90);
    expect(cooldowns.lastAnsweredAtMs('key-4999')).toBe(90 + 4999);
    // only key-0..key-9 answered once more, 4 s after the last round: the others' time is up
    for (let k = 0; k < 10; k += 1) cooldowns.answered(`key-${k}`, 1_000_000 + k, new Date(9 * 2500 + 500 + 4000));
    expect(cooldowns.lastAnsweredAtMs('key-9')).toBe(1_000_009);
    expect(cooldowns.lastAnsweredAtMs('key-10')).toBeUndefined();
    expect(cooldowns.lastAnsweredAtMs('key-4999')).toBeUndefined();
  });
});

describe('createRecentReplies', () => {
  test('keeps a reply for a while, at most so many', () => {
    const replies = createRecentReplies(60_000, 2);
    replies.start('m1', anAnswer, new Date(0));
    replies.start('m2', anAnswer, new Date(1000));
    expect(replies.get('m1')).toBeDefined();
    replies.start('m3', anAnswer, new Date(2000));
    expect(replies.get('m1')).toBeUndefined();
    replies.start('m4', anAnswer, new Date(70_000));
    expect(replies.get('m2')).toBeUndefined();
    expect(replies.get('m3')).toBeUndefined();
    expect(replies.get('m4')).toBeDefined();
  });

  test('when 30,000 lines are answered into a window of 10,000, then exactly the last 10,000 are kept', () => {
    const replies = createRecentReplies(60_000, 10_000);
    for (let n = 0; n < 30_000; n += 1) replies.start(`m${n}`, anAnswer, new Date(n));
    expect(replies.get('m19999')).toBeUndefined();
    expect(replies.get('m20000')).toBeDefined();
    expect(replies.get('m29999')).toBeDefined();
  });

  test('when a line is started again while it is held, then it keeps its place in the window', () => {
    const replies = createRecentReplies(60_000, 3);
    replies.start('m1', anAnswer, new Date(0));
    replies.start('m2', anAnswer, new Date(1000));
    replies.start('m1', anAnswer, new Date(2000));
    expect(replies.get('m1')).toMatchObject({ receivedAtMs: 2000 });
    replies.start('m3', anAnswer, new Date(3000));
    // m1 is still the first in place: the window's next line pushes it out, not m2
    replies.start('m4', anAnswer, new Date(4000));
    expect(['m1', 'm2', 'm3', 'm4'].map((id) => replies.get(id) !== undefined)).toEqual([false, true, true, true]);
  });

  test('when a reply went out in full, then it is kept as answered, with its age and place in the window', () => {
    const replies = createRecentReplies(60_000, 2);
    replies.start('m1', anAnswer, new Date(0));
    replies.start('m2', anAnswer, new Date(1000));
    replies.answered('m1');
    replies.answered('unknown');
    expect(replies.get('m1')).toBe('answered');
    expect(replies.get('unknown')).toBeUndefined();
    expect(replies.get('m2')).toMatchObject({ receivedAtMs: 1000, isChatSendPublished: false });
    // still the oldest: the next start pushes it out first
    replies.start('m3', anAnswer, new Date(2000));
    expect(replies.get('m1')).toBeUndefined();
    expect(replies.get('m2')).toBeDefined();
    replies.answered('m3');
    // an answered line ages out as a reply in progress does
    replies.start('m4', anAnswer, new Date(62_000));
    expect(replies.get('m3')).toBeUndefined();
    expect(replies.get('m4')).toBeDefined();
  });
});

describe('bots running', () => {
  test('when bots start and stop, then the running count follows, and an older document changes nothing', () => {
    const counts: number[] = [];
    const view = createBotsView((count) => counts.push(count));
    const doc = (id: string, version: number, isRunning: boolean) =>
      ({ _id: id, version, isRunning, commands: [] }) as unknown as Parameters<typeof view.apply>[0];
    view.apply(doc('a', 1, true));
    view.apply(doc('b', 1, true));
    view.apply(doc('a', 2, false));
    view.apply(doc('a', 1, true));
    expect(counts).toEqual([1, 2, 1]);
  });
});
