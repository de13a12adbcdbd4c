import {
  analyticsLimits,
  createMinuteAccumulator,
  createDayChattersTally,
  createRecentIds,
  dayDeltasOf,
  nameKey,
  type MinuteChatters,
} from './buckets';

const at = (iso: string) => new Date(iso);

describe('minute accumulator', () => {
  test('when lines arrive within one minute, then they make one bucket starting at that minute', () => {
    const pending = createMinuteAccumulator();
    pending.add('u1', at('2026-03-01T20:00:05Z'), { kind: 'message', chatter: 'alice' });
    pending.add('u1', at('2026-03-01T20:00:59.999Z'), { kind: 'message', chatter: 'bob' });
    pending.add('u1', at('2026-03-01T20:00:30Z'), { kind: 'message', chatter: 'alice' });

    const [minute, ...others] = pending.drain();

    expect(others).toEqual([]);
    expect(minute?.minute).toEqual(at('2026-03-01T20:00:00Z'));
    expect(minute?.counts.messages).toBe(3);
    expect([...(minute?.chatters ?? [])]).toEqual([
      ['alice', 2],
      ['bob', 1],
    ]);
  });

  test('when lines fall in two minutes or two channels, then each minute of each channel is its own bucket', () => {
    const pending = createMinuteAccumulator();
    pending.add('u1', at('2026-03-01T20:00:59Z'), { kind: 'message', chatter: 'alice' });
    pending.add('u1', at('2026-03-01T20:01:00Z'), { kind: 'message', chatter: 'alice' });
    pending.add('u2', at('2026-03-01T20:00:10Z'), { kind: 'message', chatter: 'alice' });

    expect(pending.drain().map((delta) => [delta.userId, delta.minute.toISOString(), delta.counts.messages])).toEqual([
      ['u1', '2026-03-01T20:00:00.000Z', 1],
      ['u1', '2026-03-01T20:01:00.000Z', 1],
      ['u2', '2026-03-01T20:00:00.000Z', 1],
    ]);
  });

  test('when a minute was drained and a late line of it arrives, then that line makes a new bucket rather than joining the written one', () => {
    const pending = createMinuteAccumulator();
    pending.add('u1', at('2026-03-01T20:00:10Z'), { kind: 'message', chatter: 'alice' });
    pending.add('u1', at('2026-03-01T20:01:10Z'), { kind: 'message', chatter: 'alice' });
    pending.add('u1', at('2026-03-01T20:00:20Z'), { kind: 'message', chatter: 'bob' });
    const first = pending.drainEndedBy(at('2026-03-01T20:01:00Z').getTime());
    pending.add('u1', at('2026-03-01T20:00:30Z'), { kind: 'message', chatter: 'carol' });
    pending.add('u1', at('2026-03-01T20:01:20Z'), { kind: 'message', chatter: 'bob' });
    const summary = (deltas: ReturnType<typeof pending.drain>) =>
      deltas.map((delta) => [delta.minute.toISOString(), delta.counts.messages, [...delta.chatters.keys()]]);
    expect(summary(first)).toEqual([['2026-03-01T20:00:00.000Z', 2, ['alice', 'bob']]]);
    expect(summary(pending.drain())).toEqual([
      ['2026-03-01T20:01:00.000Z', 2, ['alice', 'bob']],
      ['2026-03-01T20:00:00.000Z', 1, ['carol']],
    ]);
    pending.add('u1', at('2026-03-01T20:01:30Z'), { kind: 'message', chatter: 'dave' });
    expect(summary(pending.drain())).toEqual([['2026-03-01T20:01:00.000Z', 1, ['dave']]]);
  });

  test('when the accumulator is drained, then the next drain has nothing', () => {
    const pending = createMinuteAccumulator();
    pending.add('u1', at('2026-03-01T20:00:00Z'), { kind: 'count', name: 'follows', amount: 1 });
    expect(pending.isEmpty()).toBe(false);
    pending.drain();
    expect(pending.isEmpty()).toBe(true);
    expect(pending.drain()).toEqual([]);
  });

  test('when the minutes that ended are drained, then the minute under way stays for the next drain', () => {
    const pending = createMinuteAccumulator();
    pending.add('u1', at('2026-03-01T20:00:59Z'), { kind: 'message', chatter: 'alice' });
    pending.add('u1', at('2026-03-01T20:01:00Z'), { kind: 'message', chatter: 'bob' });
    pending.add('u2', at('2026-03-01T19:58:10Z'), { kind: 'message', chatter: 'carol' });

    const ended = pending.drainEndedBy(at('2026-03-01T20:01:00Z').getTime());

    expect(ended.map((delta) => [delta.userId, delta.minute.toISOString()])).toEqual([
      ['u1', '2026-03-01T20:00:00.000Z'],
      ['u2', '2026-03-01T19:58:00.000Z'],
    ]);
    expect(pending.drainEndedBy(at('2026-03-01T20:01:59.999Z').getTime())).toEqual([]);
    expect(pending.drain().map((delta) => [delta.userId, delta.minute.toISOString(), delta.counts.messages])).toEqual([
      ['u1', '2026-03-01T20:01:00.000Z', 1],
    ]);
  });

  test('when commands, follows and gifts are added, then each is counted under its own name', () => {
    const pending = createMinuteAccumulator();
    const minute = at('2026-03-01T20:00:00Z');
    pending.add('u1', minute, { kind: 'command', command: '$Hello' });
    pending.add('u1', minute, { kind: 'command', command: 'hello' });
    pending.add('u1', minute, { kind: 'count', name: 'follows', amount: 1 });
    pending.add('u1', minute, { kind: 'count', name: 'giftedSubscriptions', amount: 5 });
    pending.add('u1', minute, { kind: 'count', name: 'kicks', amount: 100 });

    const [delta] = pending.drain();

    expect(delta?.counts).toEqual({
      messages: 0,
      commands: 2,
      follows: 1,
      subscriptions: 0,
      giftedSubscriptions: 5,
      kicks: 100,
    });
    expect([...(delta?.commands ?? [])]).toEqual([['hello', 2]]);
  });

  test('when a minute has more chatters than its cap, then the lines beyond it count as unnamed lines', () => {
    const pending = createMinuteAccumulator();
    const minute = at('2026-03-01T20:00:00Z');
    for (let index = 0; index < analyticsLimits.chattersPerMinute + 3; index += 1) {
      pending.add('u1', minute, { kind: 'message', chatter: `viewer_${index}` });
    }
    pending.add('u1', minute, { kind: 'message', chatter: 'viewer_0' });
    pending.add('u1', minute, { kind: 'message', chatter: 'has.a.dot' });

    const [delta] = pending.drain();

    expect(delta?.counts.messages).toBe(analyticsLimits.chattersPerMinute + 5);
    expect(delta?.chatters.size).toBe(analyticsLimits.chattersPerMinute);
    expect(delta?.chatters.get('viewer_0')).toBe(2);
    expect(delta?.unnamedLines).toBe(4);
  });
});

describe('dayDeltasOf', () => {
  test('when minutes span midnight (UTC), then they go to two days with their hours', () => {
    const pending = createMinuteAccumulator();
    pending.add('u1', at('2026-03-01T23:59:10Z'), { kind: 'message', chatter: 'alice' });
    pending.add('u1', at('2026-03-01T23:10:00Z'), { kind: 'message', chatter: 'bob' });
    pending.add('u1', at('2026-03-02T00:00:10Z'), { kind: 'message', chatter: 'alice' });

    const days = dayDeltasOf(pending.drain());

    expect(
      days.map((day) => ({
        day: day.day.toISOString(),
        hours: Object.fromEntries([...day.hours].map(([hour, counts]) => [hour, counts.messages])),
      })),
    ).toEqual([
      { day: '2026-03-01T00:00:00.000Z', hours: { '23': 2 } },
      { day: '2026-03-02T00:00:00.000Z', hours: { '00': 1 } },
    ]);
  });
});

describe("a day's chatters from its minutes", () => {
  const tallied = (minutes: MinuteChatters[]) => {
    const tally = createDayChattersTally();
    for (const minute of minutes) tally.add(minute);
    return tally.result();
  };

  test('when minutes name chatters as pairs or as an object, then their lines add up under each name, in the order first seen', () => {
    expect(
      tallied([
        {
          chatters: [
            ['bob', 2],
            ['alice', 1],
          ],
          unnamedLines: 3,
        },
        {},
        { chatters: { carol: 1, bob: 4 } },
      ]),
    ).toEqual({
      chatters: [
        ['bob', 6],
        ['alice', 1],
        ['carol', 1],
      ],
      unnamedLines: 3,
    });
  });

  test('when the day reaches its cap of names, then a later newcomer’s lines are unnamed and a kept name still counts under its name', () => {
    const full: Array<[string, number]> = Array.from({ length: analyticsLimits.chattersPerDay }, (_, index) => [
      `v${index}`,
      1,
    ]);

    const { chatters, unnamedLines } = tallied([
      { chatters: full.slice(0, 2_000) },
      { chatters: full.slice(2_000) },
      {
        chatters: [
          ['newcomer', 2],
          ['v7', 3],
        ],
        unnamedLines: 1,
      },
    ]);

    expect(chatters).toHaveLength(analyticsLimits.chattersPerDay);
    expect(new Map(chatters).get('v7')).toBe(4);
    expect(new Map(chatters).has('newcomer')).toBe(false);
    expect(unnamedLines).toBe(3);
  });
});

describe('nameKey', () => {
  test.each([
    ['viewer_b', 'viewer_b'],
    ['Some-Name9', 'Some-Name9'],
    ['a.b', null],
    ['$where', null],
    ['', null],
    ['x'.repeat(65), null],
  ])('when the name is %p, then its key is %p', (name, key) => {
    expect(nameKey(name)).toBe(key);
  });
});

describe('recent ids', () => {
  test('when an id comes again, then it is not new; once forgotten past the limit, it is new again', () => {
    const ids = createRecentIds(2);
    expect(ids.isNew('a')).toBe(true);
    expect(ids.isNew('a')).toBe(false);
    expect(ids.isNew('b')).toBe(true);
    expect(ids.isNew('c')).toBe(true);
    expect(ids.isNew('a')).toBe(true);
  });

  test('when many more ids than the limit arrive, then the last ones up to the limit are remembered and the older ones forgotten, oldest first', () => {
    const ids = createRecentIds(3);
    for (let n = 1; n <= 10; n += 1) expect(ids.isNew(`id-${n}`)).toBe(true);
    expect([10, 9, 8].map((n) => ids.isNew(`id-${n}`))).toEqual([false, false, false]);
    // id-7 comes back as new and takes the place of the oldest remembered (id-8)
    expect(ids.isNew('id-7')).toBe(true);
    expect([7, 10, 9, 8].map((n) => ids.isNew(`id-${n}`))).toEqual([false, false, false, true]);
    expect(ids.isNew('')).toBe(true);
  });
});
