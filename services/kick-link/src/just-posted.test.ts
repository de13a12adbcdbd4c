import { createJustPosted } from './just-posted';

const t0 = Date.parse('2026-06-01T12:00:00Z');

describe('the lines posted lately', () => {
  test('when a line was posted twice, then two echoes are ours and a third is not', () => {
    const posted = createJustPosted({ keepMs: 60_000 });
    posted.add('1', 'pong', t0);
    posted.add('1', 'pong', t0 + 10);

    expect([
      posted.spend('1', 'pong', t0 + 20),
      posted.spend('1', 'pong', t0 + 20),
      posted.spend('1', 'pong', t0 + 20),
    ]).toEqual([true, true, false]);
  });

  test('when the same words were posted in another channel, then they are not this channel’s', () => {
    const posted = createJustPosted({ keepMs: 60_000 });
    posted.add('1', 'pong', t0);

    expect(posted.spend('2', 'pong', t0)).toBe(false);
    expect(posted.spend('1', 'pong', t0)).toBe(true);
  });

  test('when the window is over, then the post is forgotten; one moment before it still counts', () => {
    const posted = createJustPosted({ keepMs: 60_000 });
    posted.add('1', 'early', t0);
    posted.add('1', 'late', t0 + 1);

    expect(posted.spend('1', 'early', t0 + 60_000)).toBe(false);
    expect(posted.spend('1', 'late', t0 + 60_000)).toBe(true);
    // a spent post is held until its expiry (size), then it goes too
    expect(posted.size()).toBe(1);
    expect(posted.spend('1', 'late', t0 + 60_001)).toBe(false);
    expect(posted.size()).toBe(0);
  });

  test('when 1,000 posts a second are made for two minutes, then each echo 59 s later is still found and memory holds one window', () => {
    const posted = createJustPosted({ keepMs: 60_000 });
    const found: boolean[] = [];
    for (let ms = 0; ms < 120_000; ms += 1) {
      posted.add(`channel-${ms % 997}`, `reply ${ms}`, t0 + ms);
      const echoOf = ms - 59_000;
      if (echoOf >= 0 && echoOf % 1000 === 0)
        found.push(posted.spend(`channel-${echoOf % 997}`, `reply ${echoOf}`, t0 + ms));
    }

    expect(found).toEqual(Array.from({ length: 61 }, () => true));
    // the posts of the last 60 s (spent ones wait for their expiry too)
    expect(posted.size()).toBe(60_000);
  });

  test('when more posts are made within the window than it may hold, then the oldest go first', () => {
    const posted = createJustPosted({ keepMs: 60_000, maxEntries: 3 });
    for (const [i, words] of ['a', 'b', 'c', 'd'].entries()) posted.add('1', words, t0 + i);

    expect(posted.size()).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((words) => posted.spend('1', words, t0 + 10))).toEqual([false, true, true, true]);
  });
});
