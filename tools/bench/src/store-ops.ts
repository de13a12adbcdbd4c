import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { DuplicateKeyError, type Document, type Store } from '@kickstand/platform/store';

/**
 * The store work the hot path does for one chat message, as one interface with two
 * implementations: through the store port (any adapter) and straight on LMDB (issue 22, item 3).
 * The LMDB one is a candidate measured on the same operation mix, not a store adapter: it keeps
 * the secondary structures (a time index for expiry) by hand, as an adapter would have to.
 */
export interface HotPathOps {
  /** The webhook claim: inserts the delivery's id once; 'duplicate' for a redelivery. */
  claim(messageId: string, claimedAt: Date): Promise<'claimed' | 'duplicate'>;
  /** findOneAndUpdate with $inc (a counter, a rate bucket), upserting; returns the new value. */
  bump(key: string): Promise<number>;
  /** A batch of chat-log documents written together. */
  logBatch(entries: LogEntry[]): Promise<void>;
  /** Reads a claim back by its _id. */
  readClaim(messageId: string): Promise<Claim | null>;
  /** The TTL sweep: deletes the claims made before `cutoff`; returns how many. */
  purgeClaimsBefore(cutoff: Date): Promise<number>;
  close(): Promise<void>;
}

export interface Claim extends Document {
  claimedAt: Date;
}

export interface Counter extends Document {
  value: number;
}

export interface LogEntry extends Document {
  channel: string;
  sender: string;
  content: string;
  sentAt: Date;
}

/** Far longer than a bench run: expiry is driven by purgeClaimsBefore, never by the wall clock. */
const claimTtlSeconds = 86_400;

/** The hot path's operations on a Store (the port): what the product's code calls. */
export async function portOps(store: Store): Promise<HotPathOps> {
  const claims = store.collection<Claim>('claims');
  const counters = store.collection<Counter>('counters');
  const log = store.collection<LogEntry>('chat-log');
  await claims.createIndex({ fields: { claimedAt: 1 }, expireAfterSeconds: claimTtlSeconds });
  await log.createIndex({ fields: { channel: 1, sentAt: 1 } });
  return {
    async claim(messageId, claimedAt) {
      try {
        await claims.insertOne({ _id: messageId, claimedAt });
        return 'claimed';
      } catch (error) {
        if (error instanceof DuplicateKeyError) return 'duplicate';
        throw error;
      }
    },
    async bump(key) {
      const after = await counters.findOneAndUpdate(
        { _id: key },
        { $inc: { value: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      return after?.value ?? 0;
    },
    async logBatch(entries) {
      // the port has no insertMany: a batch is concurrent inserts, which the adapters group
      await Promise.all(entries.map((entry) => log.insertOne(entry)));
    },
    readClaim: (messageId) => claims.findOne({ _id: messageId }),
    purgeClaimsBefore: (cutoff) => claims.deleteMany({ claimedAt: { $lt: cutoff } }),
    close: () => store.close(),
  };
}

/**
 * The same operations on LMDB (the `lmdb` package: prebuilt binaries, msgpack values, writes
 * batched per event-loop turn by the library). Each write that touches more than one key runs in
 * one LMDB transaction, so it is atomic as the port requires.
 */
export function lmdbOps(dir: string): HotPathOps {
  const root: RootDatabase = open({ path: dir, compression: false });
  const claims: Database<{ claimedAt: number }, string> = root.openDB({ name: 'claims' });
  // the TTL index: [claimedAt ms, _id] → nothing, ordered, so a sweep is one range scan
  const claimsByTime: Database<null, [number, string]> = root.openDB({ name: 'claims-by-time' });
  const counters: Database<number, string> = root.openDB({ name: 'counters' });
  const log: Database<Omit<LogEntry, '_id'>, string> = root.openDB({ name: 'chat-log' });
  // the chat log's secondary index: [channel, sentAt ms, _id] → nothing
  const logByChannel: Database<null, [string, number, string]> = root.openDB({ name: 'chat-log-by-channel' });
  return {
    async claim(messageId, claimedAt) {
      const at = claimedAt.getTime();
      return root.transaction(() => {
        if (claims.doesExist(messageId)) return 'duplicate';
        void claims.put(messageId, { claimedAt: at });
        void claimsByTime.put([at, messageId], null);
        return 'claimed';
      });
    },
    bump: (key) =>
      root.transaction(() => {
        const value = (counters.get(key) ?? 0) + 1;
        void counters.put(key, value);
        return value;
      }),
    async logBatch(entries) {
      await root.transaction(() => {
        for (const { _id, ...entry } of entries) {
          void log.put(_id, entry);
          void logByChannel.put([entry.channel, entry.sentAt.getTime(), _id], null);
        }
      });
    },
    async readClaim(messageId) {
      const found = claims.get(messageId);
      return found ? { _id: messageId, claimedAt: new Date(found.claimedAt) } : null;
    },
    purgeClaimsBefore: (cutoff) =>
      root.transaction(() => {
        let removed = 0;
        // collected first: the range is not walked while it is being deleted from
        for (const key of Array.from(claimsByTime.getKeys({ end: [cutoff.getTime()] }))) {
          void claims.remove(key[1]);
          void claimsByTime.remove(key);
          removed += 1;
        }
        return removed;
      }),
    close: () => root.close(),
  };
}

/**
 * The floor: the same operations on plain Maps with an append-only journal (one JSON line per
 * write, written with one write(2) per event-loop turn, as the NeDB adapter's journal does), no
 * query language and no indexes beyond the Maps. What a hand-written log store could reach at best.
 */
export function memoryLogOps(dir: string): HotPathOps {
  const claims = new Map<string, number>();
  const counters = new Map<string, number>();
  const log = new Map<string, Omit<LogEntry, '_id'>>();
  const fd = openSync(path.join(dir, 'journal.jsonl'), 'a', 0o600);
  let buffer = '';
  let flushed: Promise<void> | undefined;
  const append = (line: unknown): Promise<void> => {
    buffer += `${JSON.stringify(line)}\n`;
    flushed ??= new Promise((resolve) =>
      setImmediate(() => {
        const data = Buffer.from(buffer, 'utf8');
        buffer = '';
        flushed = undefined;
        for (let offset = 0; offset < data.length;) offset += writeSync(fd, data, offset);
        resolve();
      }),
    );
    return flushed;
  };
  return {
    async claim(messageId, claimedAt) {
      if (claims.has(messageId)) return 'duplicate';
      claims.set(messageId, claimedAt.getTime());
      await append({ c: 'claims', _id: messageId, claimedAt });
      return 'claimed';
    },
    async bump(key) {
      const value = (counters.get(key) ?? 0) + 1;
      counters.set(key, value);
      await append({ c: 'counters', _id: key, value });
      return value;
    },
    async logBatch(entries) {
      for (const { _id, ...entry } of entries) {
        log.set(_id, entry);
        void append({ c: 'chat-log', _id, ...entry });
      }
      await flushed;
    },
    async readClaim(messageId) {
      const at = claims.get(messageId);
      return at === undefined ? null : { _id: messageId, claimedAt: new Date(at) };
    },
    async purgeClaimsBefore(cutoff) {
      const limit = cutoff.getTime();
      let removed = 0;
      for (const [id, at] of claims) {
        if (at >= limit) continue;
        claims.delete(id);
        void append({ c: 'claims', _id: id, $deleted: true });
        removed += 1;
      }
      await flushed;
      return removed;
    },
    async close() {
      await flushed;
      closeSync(fd);
    },
  };
}
