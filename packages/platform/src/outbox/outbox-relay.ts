import type { KeyedQueue } from '../keyed-queue';
import { createKeyedQueue } from '../keyed-queue';
import type { Logger } from '../log';
import type { Collection, Document } from '../store';

/**
 * The transactional outbox, once for every service. A service writes a state change and the
 * messages it causes in ONE atomic update of one document (its `outbox` array); the relay then
 * publishes the entries in order and pulls each one once the bus took it. A crash or a bus outage
 * in between leaves the entries in the document, and the next flush (after the write, at start,
 * and every `retryMs`) publishes them again, with the same event id, which consumers dedupe on.
 */

/** A document that carries the messages its last changes still have to publish (none when absent). */
export interface OutboxDocument<Entry> extends Document {
  outbox?: Entry[];
}

export interface OutboxRelayOptions<Doc extends OutboxDocument<Entry>, Entry> {
  collection: Collection<Doc>;
  /** The field of an entry that identifies it within its document (what the pull matches). */
  idField: keyof Entry & string;
  /** Publishes one entry on the bus; gets the document as read, for fields that are current (a version). */
  publish(doc: Doc, entry: Entry): Promise<void>;
  log: Logger;
  /** Names the outbox in logs, e.g. `user.changed`. */
  name: string;
  /**
   * Where flushes of one document queue; pass the service's own when its writes of a document
   * already run in a keyed queue (then publishFrom is called inside it). A new one by default.
   */
  queue?: KeyedQueue;
  /** How often start() retries every pending outbox; 30 s by default. */
  retryMs?: number;
}

export interface OutboxRelay<Doc> {
  /**
   * Publishes the outbox of `doc` as read, in order, pulling each entry once published. For a
   * caller that already holds the document's key in the queue. False when an entry could not be
   * published (it is logged and stays for a later flush). Never throws.
   */
  publishFrom(doc: Doc): Promise<boolean>;
  /** Reads the document and publishes its outbox, in the document's queue. Never throws. */
  flush(id: string): Promise<void>;
  /** Every document with a pending outbox, one after another. Never throws. */
  flushAll(): Promise<void>;
  /** Flushes every pending outbox now (resolves when done) and then every `retryMs` (the timer does not hold the process). */
  start(): Promise<void>;
  stop(): void;
}

export function createOutboxRelay<Doc extends OutboxDocument<Entry>, Entry>(
  options: OutboxRelayOptions<Doc, Entry>,
): OutboxRelay<Doc> {
  const { collection, idField, publish, log, name } = options;
  const queue = options.queue ?? createKeyedQueue();
  let timer: NodeJS.Timeout | undefined;

  async function publishFrom(doc: Doc): Promise<boolean> {
    try {
      for (const entry of doc.outbox ?? []) {
        await publish(doc, entry);
        await collection.updateOne({ _id: doc._id }, { $pull: { outbox: { [idField]: entry[idField] } } });
      }
      return true;
    } catch (err) {
      // the state change is stored and its messages stay in the outbox: a later flush sends them
      log.error(
        { err, outbox: name, id: doc._id },
        'could not publish from the outbox; the messages stay and are retried',
      );
      return false;
    }
  }

  async function flushUnqueued(id: string): Promise<void> {
    let doc: Doc | null;
    try {
      doc = await collection.findOne({ _id: id });
    } catch (err) {
      log.error({ err, outbox: name, id }, 'could not read an outbox');
      return;
    }
    if (doc?.outbox && doc.outbox.length > 0) await publishFrom(doc);
  }

  const flush = (id: string) => queue.run(id, () => flushUnqueued(id));

  async function flushAll(): Promise<void> {
    let pending: Doc[];
    try {
      pending = await collection.find({ 'outbox.0': { $exists: true } });
    } catch (err) {
      log.error({ err, outbox: name }, 'could not read the outboxes');
      return;
    }
    for (const doc of pending) await flush(doc._id);
  }

  return {
    publishFrom,
    flush,
    flushAll,
    async start() {
      clearInterval(timer);
      timer = setInterval(() => void flushAll(), options.retryMs ?? 30_000);
      timer.unref();
      await flushAll();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
