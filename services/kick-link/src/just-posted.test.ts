import { seededRandom } from '@kickstand/platform/random';
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

describe('the lines posted lately, held in typed arrays', () => {
  test('when thousands of posts under many keys outgrow the first ring, then each is found until its expiry and not after', () => {
    const keepMs = 1_000;
    // one post a millisecond for 2 s, so the first ring of 1,024 wraps; then four a millisecond for 1 s,
    // so it grows twice while wrapped; 300 keys
    const madeAtMs = Array.from({ length: 6_000 }, (_, i) => (i < 2_000 ? i : 2_000 + Math.floor((i - 2_000) / 4)));
    const keyOf = (i: number) => [`channel-${i % 3}`, `reply ${i % 100}`] as const;
    const heldAt = (ms: number) => madeAtMs.filter((at) => at <= ms && at + keepMs > ms).length;
    const postAll = () => {
      const posted = createJustPosted({ keepMs });
      madeAtMs.forEach((at, i) => {
        posted.add(...keyOf(i), t0 + at);
        if (i % 500 === 499) expect([at, posted.size()]).toEqual([at, heldAt(at)]);
      });
      return posted;
    };

    // right after the last post, when some posted before each growth are still held, and later, when none are
    for (const now of [2_999, 3_499]) {
      const posted = postAll();
      const wanted = Array.from(
        { length: 300 },
        (_, k) => madeAtMs.filter((at, i) => i % 300 === k && at + keepMs > now).length,
      );
      const spentPerKey = Array.from({ length: 300 }, (_, k) => {
        let count = 0;
        while (posted.spend(...keyOf(k), t0 + now)) count += 1;
        return count;
      });
      expect([now, posted.size()]).toEqual([now, heldAt(now)]);
      expect(spentPerKey).toEqual(wanted);

      expect(posted.spend(...keyOf(0), t0 + 4_000)).toBe(false);
      expect(posted.size()).toBe(0);
    }
  });

  test('when one of two posts of the same words was spent and the older expires, then the other is still ours until its own expiry', () => {
    const posted = createJustPosted({ keepMs: 60_000 });
    posted.add('1', 'pong', t0);
    posted.add('1', 'pong', t0 + 1_000);

    expect(posted.spend('1', 'pong', t0 + 500)).toBe(true);
    // the spent one goes at t0 + 60,000, the unspent one stays
    expect(posted.size()).toBe(2);
    expect(posted.spend('1', 'pong', t0 + 60_000)).toBe(true);
    expect(posted.size()).toBe(1);
    expect(posted.spend('1', 'pong', t0 + 60_000)).toBe(false);
    expect(posted.spend('1', 'pong', t0 + 61_000)).toBe(false);
    expect(posted.size()).toBe(0);
  });

  test('when the second post of the same words comes after the first expired, then only the second is ours', () => {
    const posted = createJustPosted({ keepMs: 60_000 });
    posted.add('1', 'pong', t0);
    posted.add('1', 'pong', t0 + 60_000);

    expect(posted.size()).toBe(1);
    expect(posted.spend('1', 'pong', t0 + 60_000)).toBe(true);
    expect(posted.spend('1', 'pong', t0 + 60_000)).toBe(false);
  });

  test('when posts beyond maxEntries are made, then the oldest go first whether spent or not, and the spent ones stay spent', () => {
    const posted = createJustPosted({ keepMs: 60_000, maxEntries: 3 });
    posted.add('1', 'a', t0);
    posted.add('1', 'a', t0 + 1);
    posted.add('1', 'b', t0 + 2);
    // the first 'a' is spent; the second 'a' and 'b' are not
    expect(posted.spend('1', 'a', t0 + 3)).toBe(true);

    // evicts the spent 'a'
    posted.add('1', 'c', t0 + 4);
    expect(posted.size()).toBe(3);
    // evicts the unspent 'a'
    posted.add('1', 'd', t0 + 5);
    expect(posted.size()).toBe(3);

    expect(['a', 'b', 'c', 'd'].map((words) => posted.spend('1', words, t0 + 6))).toEqual([false, true, true, true]);
    // all three held are spent now; a fourth post evicts one of them and is itself ours
    posted.add('1', 'b', t0 + 7);
    expect(posted.size()).toBe(3);
    expect(posted.spend('1', 'b', t0 + 8)).toBe(true);
    expect(posted.spend('1', 'b', t0 + 8)).toBe(false);
  });

  test('when every post of some words expired, then they are forgotten, and posting them again makes them ours again', () => {
    const posted = createJustPosted({ keepMs: 1_000 });
    posted.add('1', 'pong', t0);
    posted.add('1', 'ping', t0 + 1);
    expect(posted.spend('1', 'pong', t0 + 2)).toBe(true);

    expect(posted.spend('1', 'pong', t0 + 2_000)).toBe(false);
    expect(posted.spend('1', 'ping', t0 + 2_000)).toBe(false);
    expect(posted.size()).toBe(0);

    // the freed key slots are taken again, in either order
    posted.add('1', 'ping', t0 + 3_000);
    posted.add('2', 'other', t0 + 3_000);
    posted.add('1', 'pong', t0 + 3_001);
    expect(posted.size()).toBe(3);
    expect(posted.spend('1', 'pong', t0 + 3_002)).toBe(true);
    expect(posted.spend('1', 'pong', t0 + 3_002)).toBe(false);
    expect(posted.spend('1', 'ping', t0 + 3_002)).toBe(true);
    expect(posted.spend('2', 'other', t0 + 3_002)).toBe(true);
    expect(posted.spend('2', 'ping', t0 + 3_002)).toBe(false);
  });

  /** The algorithm before typed arrays, plainly: every post in order, spent ones marked. */
  function createReference(keepMs: number, maxEntries: number) {
    const posts: { key: string; expiresAtMs: number; isSpent: boolean }[] = [];
    const prune = (nowMs: number) => {
      for (let oldest = posts[0]; oldest; oldest = posts[0]) {
        if (oldest.expiresAtMs > nowMs && posts.length <= maxEntries) break;
        posts.shift();
      }
    };
    return {
      add(channel: string, content: string, nowMs: number) {
        posts.push({ key: `${channel}\n${content}`, expiresAtMs: nowMs + keepMs, isSpent: false });
        prune(nowMs);
      },
      spend(channel: string, content: string, nowMs: number) {
        prune(nowMs);
        const post = posts.find((p) => p.key === `${channel}\n${content}` && !p.isSpent);
        if (!post) return false;
        post.isSpent = true;
        return true;
      },
      size: () => posts.length,
    };
  }

  test.each([
    { keepMs: 40, maxEntries: 50, operations: 5_000, moreWords: 0, seed: 1 },
    { keepMs: 25, maxEntries: 10, operations: 5_000, moreWords: 0, seed: 2 },
    { keepMs: 100, maxEntries: 1, operations: 2_000, moreWords: 0, seed: 3 },
    // grows the ring past its first 1,024 slots, up to maxEntries, and evicts there
    { keepMs: 5_000, maxEntries: 3_000, operations: 20_000, moreWords: 0, seed: 4 },
    // grows the key slots past their first 1,024 while some keys have spent posts, and reuses freed ones
    { keepMs: 5_000, maxEntries: 3_000, operations: 20_000, moreWords: 2_000, seed: 5 },
  ])(
    'when random posts and echoes come over time (keepMs $keepMs, maxEntries $maxEntries, $moreWords more words), then every spend and size agree with the plain list it replaced',
    ({ keepMs, maxEntries, operations, moreWords, seed }) => {
      const next = seededRandom(seed);
      const pick = (count: number) => Math.floor(next() * count);
      const pickOf = (of: string[]) => of[pick(of.length)] as string;
      const channels = ['1', '2', '3', '4'];
      const words = ['pong', 'hi', 'gg', 'lol', 'ok', 'nice', ''].concat(
        Array.from({ length: moreWords }, (_, n) => `word ${n}`),
      );
      const posted = createJustPosted({ keepMs, maxEntries });
      const reference = createReference(keepMs, maxEntries);
      const differences: string[] = [];
      let nowMs = t0;
      for (let i = 0; i < operations && differences.length < 5; i += 1) {
        nowMs += pick(4);
        const channel = pickOf(channels);
        const content = pickOf(words);
        if (next() < 0.6) {
          posted.add(channel, content, nowMs);
          reference.add(channel, content, nowMs);
        } else {
          const got = posted.spend(channel, content, nowMs);
          const want = reference.spend(channel, content, nowMs);
          if (got !== want)
            differences.push(`#${i} spend ${channel}/${content} at +${nowMs - t0}: ${got}, not ${want}`);
        }
        if (posted.size() !== reference.size())
          differences.push(`#${i} at +${nowMs - t0}: size ${posted.size()}, not ${reference.size()}`);
      }

      expect(differences).toEqual([]);
    },
  );
});
