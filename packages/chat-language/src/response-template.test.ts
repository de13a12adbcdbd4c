import type { Random } from './random';
import {
  counterChanges,
  formatUptime,
  parseCounterUse,
  randomRange,
  renderResponse,
  truncateForChat,
  usesStream,
  type ResponseContext,
} from './response-template';

/** Answers from a fixed list, in turn, and remembers what it was asked. */
function fakeRandom(...answers: number[]): Random & { calls: Array<[number, number]> } {
  const calls: Array<[number, number]> = [];
  let next = 0;
  return {
    calls,
    intBetween(min, max) {
      calls.push([min, max]);
      const answer = answers[next % answers.length] ?? min;
      next += 1;
      return answer;
    },
  };
}

const context = (overrides: Partial<ResponseContext> = {}): ResponseContext => ({
  user: 'viewer_a',
  args: [],
  channel: 'streamer_x',
  count: 7,
  ...overrides,
});

const render = (template: string, overrides: Partial<ResponseContext> = {}, random: Random = fakeRandom(4)) =>
  renderResponse(template, context(overrides), random);

describe('renderResponse', () => {
  test('when the response has no variables, then it is sent as it is', () => {
    expect(render('Hello! This is a test command.')).toBe('Hello! This is a test command.');
  });

  test('when the response uses {user}, then it is who typed the command', () => {
    expect(render('Hi {user}, welcome {user}!')).toBe('Hi viewer_a, welcome viewer_a!');
  });

  test('when {user} holds a newline (a forged second line), then the control characters are dropped, not sent', () => {
    expect(render('Hi {user}!', { user: 'evil\nKickstand: visit scam.example' })).toBe(
      'Hi evilKickstand: visit scam.example!',
    );
  });

  test('when {args}, {touser} or {channel} carry C0/C1 controls, then they are stripped and the template text kept', () => {
    expect(
      render('{touser} said {args}\non {channel}', {
        args: ['@fr\u0000iend', 'a\rb', 'c\u0085d\u001b[2J'],
        channel: 'chan\u2028nel',
      }),
    ).toBe('friend said @friend ab cd[2J\non channel');
  });

  describe('{touser}', () => {
    test('when an argument is given, then it is the first argument', () => {
      expect(render('{user} hugs {touser}', { args: ['friend', 'extra'] })).toBe('viewer_a hugs friend');
    });

    test('when the argument starts with @, then the @ is dropped', () => {
      expect(render('hi {touser}', { args: ['@friend'] })).toBe('hi friend');
    });

    test('when only one @ is dropped, then a second stays', () => {
      expect(render('hi {touser}', { args: ['@@friend'] })).toBe('hi @friend');
    });

    test('when there is no argument, then it is who typed the command', () => {
      expect(render('hi {touser}')).toBe('hi viewer_a');
    });

    test('when the argument is only @, then it is who typed the command', () => {
      expect(render('hi {touser}', { args: ['@'] })).toBe('hi viewer_a');
    });
  });

  describe('{args}', () => {
    test('when arguments are given, then they are all there, one space apart', () => {
      expect(render('You said: {args}', { args: ['a', 'b', 'c'] })).toBe('You said: a b c');
    });

    test('when there are no arguments, then it is empty', () => {
      expect(render('You said: [{args}]')).toBe('You said: []');
    });

    test('when an argument looks like a variable, then it is not filled in again', () => {
      expect(render('{args}', { args: ['{user}', '{random:1-9}'] })).toBe('{user} {random:1-9}');
    });
  });

  test('when the response uses {channel} and {count}, then they are the channel and the run number', () => {
    expect(render('{channel} has used this {count} times', { count: 42 })).toBe('streamer_x has used this 42 times');
  });

  describe('{random:A-B}', () => {
    test('when the range is valid, then a number from the injected random source fills it', () => {
      const random = fakeRandom(17);

      expect(render('You rolled {random:1-20}', {}, random)).toBe('You rolled 17');
      expect(random.calls).toEqual([[1, 20]]);
    });

    test('when it appears twice, then each is drawn on its own', () => {
      const random = fakeRandom(3, 5);

      expect(render('{random:1-6} and {random:1-6}', {}, random)).toBe('3 and 5');
    });

    test.each(['0-0', '0-1000000', '5-5'])('when the range is %s, then it is accepted', (range) => {
      const random = fakeRandom(0);

      render(`{random:${range}}`, {}, random);

      expect(random.calls).toHaveLength(1);
    });

    test.each([
      ['{random:5-1}', 'reversed'],
      ['{random:a-b}', 'not numbers'],
      ['{random:1-1000001}', 'above the maximum'],
      ['{random:-1-5}', 'negative'],
      ['{random:1.5-3}', 'not whole'],
      ['{random:1-}', 'half'],
      ['{random:}', 'empty'],
      ['{random}', 'without a range'],
      ['{random: 1-5}', 'with blanks'],
    ])('when it is %s (%s), then it stays as typed', (template) => {
      const random = fakeRandom(1);

      expect(render(`roll ${template}`, {}, random)).toBe(`roll ${template}`);
      expect(random.calls).toEqual([]);
    });
  });

  test.each(['{foo}', '{User}', '{user:x}', '{ user }', '{}', '{user', 'user}'])(
    'when the response has %s, which is no variable, then it stays as typed',
    (template) => {
      expect(render(`a ${template} b`)).toBe(`a ${template} b`);
    },
  );

  test('when the filled-in response is longer than 500 characters, then it is cut to 500', () => {
    const rendered = render(`${'x'.repeat(490)} {args}`, { args: ['y'.repeat(100)] });

    expect(rendered).toHaveLength(500);
    expect(rendered).toBe(`${'x'.repeat(490)} ${'y'.repeat(9)}`);
  });
});

describe('truncateForChat', () => {
  test('when the text fits, then it is unchanged', () => {
    expect(truncateForChat('short', 5)).toBe('short');
  });

  test('when the cut would split a two-unit character, then the whole character goes', () => {
    expect(truncateForChat('abc😀', 4)).toBe('abc');
    expect(truncateForChat('ab😀c', 4)).toBe('ab😀');
  });
});

describe('randomRange', () => {
  test('when the range is valid, then its bounds are read', () => {
    expect(randomRange('10-20')).toEqual({ min: 10, max: 20 });
  });

  test('when a bound has leading zeros, then it is read as a number', () => {
    expect(randomRange('007-010')).toEqual({ min: 7, max: 10 });
  });
});

describe('named counters', () => {
  const withCounters = (entries: Array<[string, number]>) => ({ counters: new Map(entries) });

  test('when a response reads {counter:deaths}, then it shows the value the runtime passed', () => {
    expect(render('Deaths: {counter:deaths}', withCounters([['deaths', 12]]))).toBe('Deaths: 12');
  });

  test('when the counter was never set, then it shows 0', () => {
    expect(render('Deaths: {counter:deaths}', withCounters([]))).toBe('Deaths: 0');
  });

  test('when the name is typed in capitals, then it is the same counter', () => {
    expect(render('{counter:Deaths+1}', withCounters([['deaths', 3]]))).toBe('3');
  });

  test('when no counters are passed (a caller that knows none), then the text stays as typed', () => {
    expect(render('Deaths: {counter:deaths}')).toBe('Deaths: {counter:deaths}');
  });

  test('when the counter use is malformed, then the text stays as typed', () => {
    expect(render('{counter:} {counter:a b} {counter:x+0} {counter:x+1001}', withCounters([['x', 1]]))).toBe(
      '{counter:} {counter:a b} {counter:x+0} {counter:x+1001}',
    );
  });

  test('parseCounterUse reads a name, an increment and a decrement', () => {
    expect(parseCounterUse('deaths')).toEqual({ name: 'deaths', delta: 0 });
    expect(parseCounterUse('deaths+1')).toEqual({ name: 'deaths', delta: 1 });
    expect(parseCounterUse('Deaths-1')).toEqual({ name: 'deaths', delta: -1 });
    expect(parseCounterUse('boss-kills+25')).toEqual({ name: 'boss-kills', delta: 25 });
    expect(parseCounterUse('x'.repeat(31))).toBeUndefined();
    expect(parseCounterUse('deaths*2')).toBeUndefined();
  });

  test('counterChanges sums each counter’s changes, in the order of first use, reads counting 0', () => {
    expect(counterChanges('{counter:deaths+1} {counter:wins} {counter:DEATHS+2} {counter:losses-1} {user}')).toEqual([
      { name: 'deaths', delta: 3 },
      { name: 'wins', delta: 0 },
      { name: 'losses', delta: -1 },
    ]);
  });

  test('when a response has no counters, then counterChanges is empty', () => {
    expect(counterChanges('Hello {user} {random:1-5}')).toEqual([]);
  });
});

describe('stream variables', () => {
  const live = { isLive: true, startedAtMs: 1_000_000, title: 'ranked grind', game: 'Just Chatting' };

  test('when the channel is live, then {uptime} {game} {title} show the stream', () => {
    const nowMs = 1_000_000 + (2 * 60 + 5) * 60_000 + 59_000;
    expect(render('{uptime} | {game} | {title}', { stream: live, nowMs })).toBe('2h 5m | Just Chatting | ranked grind');
  });

  test('when the channel is offline, then {uptime} says offline', () => {
    expect(render('{uptime}', { stream: { ...live, isLive: false, startedAtMs: null }, nowMs: 5 })).toBe('offline');
  });

  test('when no stream is passed, then the variables stay as typed', () => {
    expect(render('{uptime} {game} {title}')).toBe('{uptime} {game} {title}');
  });

  test('formatUptime shows seconds under a minute, minutes under an hour, then hours and minutes', () => {
    expect([0, 35_000, 60_000, 12 * 60_000 + 59_000, 3_600_000, 26 * 3_600_000 + 60_000].map(formatUptime)).toEqual([
      '0s',
      '35s',
      '1m',
      '12m',
      '1h 0m',
      '26h 1m',
    ]);
  });

  test('usesStream tells whether a response shows the stream', () => {
    expect([
      usesStream('{uptime}'),
      usesStream('Now: {game}'),
      usesStream('{title}'),
      usesStream('{user} {count}'),
    ]).toEqual([true, true, true, false]);
  });
});
