import { Fifo } from '@kickstand/platform/keyed-queue';

/**
 * The lines the bot posted lately, by channel and words, each kept `keepMs` and spent by one echo
 * (chat-sender.ts OwnLines: Kick may echo a line under another id than the one it returned).
 *
 * Why it is keyed and bounded this way: it was one list for the whole process, at most 1,000
 * entries, scanned for every viewer line; at 200 replies a second an entry lived ~5 s instead of
 * the 60 s asked for, so a late echo could be taken for a viewer's line, and each viewer line paid
 * a scan of up to 1,000 entries. Now a lookup is one Map access, and an entry lives its whole
 * window as long as at most `maxEntries` posts were made within it (100,000 by default: ~1,600
 * replies a second for 60 s, a few MB); beyond that the oldest go first, which bounds the memory.
 */
export interface JustPosted {
  /** A post of `content` in `channel` at `nowMs`. */
  add(channel: string, content: string, nowMs: number): void;
  /** Spends the oldest live post of these words in this channel; true when there was one. */
  spend(channel: string, content: string, nowMs: number): boolean;
  /** Posts held: not expired yet (spent ones too), at most maxEntries. */
  size(): number;
}

export const defaultMaxJustPosted = 100_000;

export function createJustPosted(options: { keepMs: number; maxEntries?: number }): JustPosted {
  const { keepMs, maxEntries = defaultMaxJustPosted } = options;
  interface Post {
    key: string;
    expiresAtMs: number;
    isSpent: boolean;
  }
  /** Channel and words → their posts not spent yet, oldest first. */
  const byKey = new Map<string, Post[]>();
  /** Every post in the order made (so expiry times grow along it), spent ones until they expire. */
  const order = new Fifo<Post>();

  const keyOf = (channel: string, content: string) => `${channel}\n${content}`;

  /** Drops the posts that expired, and the oldest beyond maxEntries. */
  function prune(nowMs: number): void {
    for (let post = order.peek(); post; post = order.peek()) {
      if (post.expiresAtMs > nowMs && order.size <= maxEntries) break;
      order.shift();
      if (post.isSpent) continue;
      // the oldest post of all is the oldest of its key (each key's posts are in order, spent from the front)
      const posts = byKey.get(post.key);
      if (!posts || posts.length <= 1) byKey.delete(post.key);
      else posts.shift();
    }
  }

  return {
    add(channel, content, nowMs) {
      const post: Post = { key: keyOf(channel, content), expiresAtMs: nowMs + keepMs, isSpent: false };
      const posts = byKey.get(post.key);
      if (posts) posts.push(post);
      else byKey.set(post.key, [post]);
      order.push(post);
      prune(nowMs);
    },
    spend(channel, content, nowMs) {
      prune(nowMs);
      const key = keyOf(channel, content);
      const posts = byKey.get(key);
      const oldest = posts?.[0];
      if (!posts || !oldest) return false;
      // after the prune every post left is live
      oldest.isSpent = true;
      if (posts.length === 1) byKey.delete(key);
      else posts.shift();
      return true;
    },
    size: () => order.size,
  };
}
