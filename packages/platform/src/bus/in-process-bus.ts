import { fromBinary, toBinary, type DescMessage, type Message } from '@bufbuild/protobuf';
import { wallClockMs } from '../clock/clock';
import { Fifo } from '../keyed-queue/fifo';
import { createSilentLogger, type Logger } from '../log/logger';
import {
  backoffMs,
  deadLetterTopic,
  defaultRetryPolicy,
  type Bus,
  type DeadLetter,
  type MessageHandler,
  type RetryPolicy,
  type Subscription,
  type TopicName,
  type TopicRegistry,
} from './bus';
import { copyAsDecoded, planOf } from './decoded-copy';
import { deepFreeze } from './deep-freeze';

/**
 * The default bus adapter, for single-machine mode: every service in the process shares ONE
 * instance. It is modelled on Kafka so that code tested against it behaves the same on Kafka:
 *
 * - each topic has N partitions (default 12); a message goes to partition hash(key) % N, so one
 *   key's messages stay in order;
 * - each (topic, group) spreads the partitions over its current members (round robin in join
 *   order) and re-spreads them when a member joins or leaves;
 * - each (group, partition) is handled strictly one message at a time, in order; a failing
 *   handler is retried in place (the partition waits, as on Kafka), then the message is
 *   dead-lettered and the partition moves on;
 * - a brand-new group does NOT see messages published before its first subscriber (Kafka's
 *   `latest` start for a new group). Once a group exists, it keeps receiving: messages published
 *   while all its members are gone wait in its partitions until a member comes back, the way
 *   committed offsets make a Kafka group resume where it stopped.
 *
 * A publish makes, once, the object every group receives: what decoding the message's protobuf
 * bytes would give, copied from the publisher's object by its schema without making the bytes
 * (`copyAsDecoded`; encoding and decoding cost ~30 µs and ~45 KB of garbage per chat.received,
 * docs/performance.md, "The in-process bus"). A message that does not fit its schema is refused
 * there exactly as Kafka's publish refuses it (protobuf-es's own encoder decides every value the
 * copy does not take as plainly fitting). The bytes are made only when a dead letter needs them.
 * A shared object must not be changed by a handler, so it is deep-frozen (`freezeMessages`) and a
 * handler that writes to it throws. Nothing is durable: stopping the process loses the queues
 * (single-machine mode keeps durable state in the store, not on the bus).
 */

export interface InProcessBusOptions<R extends TopicRegistry> {
  topics: R;
  retry?: RetryPolicy;
  /** Partitions per topic; 12 unless told. */
  partitions?: number;
  log?: Logger;
  /**
   * Deep-freezes each message (as its copy is made) before its first handler runs, so that a
   * handler writing to the object all groups share throws a TypeError instead of changing what the
   * other groups see. On unless told: it costs ~0.6 µs per chat.received (once, not per group),
   * and a handler that fails loudly in production beats one that silently changes another
   * service's input. Off only to measure it (`npm run bench:bus -- --freeze off`).
   */
  freezeMessages?: boolean;
}

export type InProcessBus<R extends TopicRegistry> = Bus<R> & {
  /**
   * Publishes bytes as they are, without encoding: to re-drive a dead letter to its original
   * topic, and for tests of undecodable messages.
   */
  publishRaw(topic: TopicName<R>, key: string, value: Uint8Array): Promise<void>;
};

/** Dead letters kept per group; the oldest go first (a retention limit, as Kafka has one). */
const deadLettersKeptPerGroup = 10_000;

/** FNV-1a over the key's UTF-16 code units: stable, fast, spreads short ids well. */
export function partitionFor(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}

interface Entry {
  key: string;
  /** The protobuf bytes: given to publishRaw, else made when a dead letter needs them (`bytesOf`). */
  value: Uint8Array | undefined;
  /**
   * What every group receives: made at publish, or (publishRaw) decoded by the first group that
   * reaches the entry.
   */
  message: Message | undefined;
  /** Why the bytes could not be decoded, once a group tried: the other groups need not try again. */
  decodeError: string | undefined;
  /** Wall-clock ms of the publish (DeliveryInfo.publishedAtMs): what the bus-wait metric counts from. */
  publishedAtMs: number;
}

interface Member {
  handler: MessageHandler<Message>;
  inFlight: number;
  onIdle: Array<() => void>;
}

interface Partition {
  queue: Fifo<Entry>;
  owner: Member | undefined;
  isDraining: boolean;
  /** Ends the current backoff wait early (the owner changed); undefined when not waiting. */
  wake: (() => void) | undefined;
  /** Runs drain() on this partition: what schedule() queues, made once per partition. */
  drainSoon: () => void;
}

interface Group {
  name: string;
  topic: string;
  schema: DescMessage;
  members: Member[];
  partitions: Partition[];
}

interface DeadLetterReader {
  isActive: boolean;
  /** Calls are chained so a reader sees dead letters one at a time, in order. */
  chain: Promise<void>;
  handler: (deadLetter: DeadLetter) => Promise<void>;
}

interface DeadLetterLog {
  letters: DeadLetter[];
  readers: Set<DeadLetterReader>;
}

/**
 * The state one bus instance shares between its parts. The parts are module-level functions
 * taking it explicitly, so each does one job (routing, draining, dead-lettering, membership).
 */
interface Engine {
  retry: RetryPolicy;
  partitionCount: number;
  log: Logger;
  freezeMessages: boolean;
  /** topic → group name → group. A group appears with its first subscriber and then stays. */
  groupsByTopic: Map<string, Map<string, Group>>;
  deadLetterLogs: Map<string, DeadLetterLog>;
  /** Every live subscription, so `stop()` can end them all. */
  subscriptions: Set<Subscription>;
}

export function createInProcessBus<R extends TopicRegistry>(options: InProcessBusOptions<R>): InProcessBus<R> {
  const { topics } = options;
  const partitionCount = options.partitions ?? 12;
  if (!Number.isInteger(partitionCount) || partitionCount < 1) {
    throw new Error(`partitions must be a positive integer, got ${partitionCount}`);
  }
  const engine: Engine = {
    retry: options.retry ?? defaultRetryPolicy,
    partitionCount,
    log: options.log ?? createSilentLogger(),
    freezeMessages: options.freezeMessages ?? true,
    groupsByTopic: new Map(),
    deadLetterLogs: new Map(),
    subscriptions: new Set(),
  };
  // The copy plans of the topics' message types, made once here rather than at a first publish.
  for (const schema of Object.values(topics)) planOf(schema);
  let isStopped = false;

  function assertRunning(): void {
    if (isStopped) throw new Error('The bus is stopped');
  }

  function schemaOf(topic: TopicName<R>): DescMessage {
    const schema = topics[topic];
    if (!schema) throw unknownTopic(topic);
    return schema;
  }

  const bus: InProcessBus<R> = {
    async publish(topic, key, message) {
      assertRunning();
      // made (and a message that does not fit its schema refused) even when no group reads the topic
      const published = copyAsDecoded(schemaOf(topic), message, engine.freezeMessages);
      enqueue(engine, topic, key, published.value, published.message);
    },

    async publishRaw(topic, key, value) {
      assertRunning();
      schemaOf(topic);
      enqueue(engine, topic, key, value, undefined);
    },

    async subscribe(topic, groupName, handler) {
      assertRunning();
      const schema = topics[topic];
      if (!schema) throw unknownTopic(topic);
      // The bus hands this group only messages decoded with the topic's schema, which is what
      // the handler's type says; the member's type cannot carry the topic's type.
      return joinGroup(engine, groupOf(engine, topic, groupName, schema), handler as MessageHandler<Message>);
    },

    async subscribeDeadLetters(group, handler) {
      assertRunning();
      return readDeadLetters(engine, group, handler);
    },

    async ping() {
      assertRunning();
    },

    // A subscription of this bus receives from the moment subscribe resolves.
    joining() {
      return [];
    },

    async stop() {
      isStopped = true;
      await Promise.all([...engine.subscriptions].map((subscription) => subscription.stop()));
      engine.groupsByTopic.clear();
    },
  };
  return bus;
}

/** Adds a member to the group; its subscription's stop() hands its partitions to the others. */
function joinGroup(engine: Engine, group: Group, handler: MessageHandler<Message>): Subscription {
  const member: Member = { handler, inFlight: 0, onIdle: [] };
  let stopping: Promise<void> | undefined;
  const subscription: Subscription = {
    stop() {
      stopping ??= (async () => {
        const index = group.members.indexOf(member);
        if (index >= 0) group.members.splice(index, 1);
        rebalance(engine, group); // the member owns nothing from here on, so it gets no further call
        engine.subscriptions.delete(subscription);
        if (member.inFlight > 0) await new Promise<void>((resolve) => member.onIdle.push(resolve));
      })();
      return stopping;
    },
  };
  group.members.push(member);
  engine.subscriptions.add(subscription);
  rebalance(engine, group);
  return subscription;
}

function readDeadLetters(
  engine: Engine,
  group: string,
  handler: (deadLetter: DeadLetter) => Promise<void>,
): Subscription {
  const deadLetters = deadLetterLogOf(engine, group);
  const reader: DeadLetterReader = { isActive: true, chain: Promise.resolve(), handler };
  // Like a Kafka reader starting at the beginning of `<group>.dlq`: the kept ones first.
  for (const letter of deadLetters.letters) read(engine.log, reader, letter);
  deadLetters.readers.add(reader);
  const subscription: Subscription = {
    async stop() {
      reader.isActive = false;
      deadLetters.readers.delete(reader);
      engine.subscriptions.delete(subscription);
      await reader.chain;
    },
  };
  engine.subscriptions.add(subscription);
  return subscription;
}

function enqueue(
  engine: Engine,
  topic: string,
  key: string,
  value: Uint8Array | undefined,
  message: Message | undefined,
): void {
  const groups = engine.groupsByTopic.get(topic);
  if (!groups) return; // no group has ever subscribed: nobody to deliver to
  const entry: Entry = { key, value, message, decodeError: undefined, publishedAtMs: wallClockMs() };
  const partitionIndex = partitionFor(key, engine.partitionCount);
  for (const group of groups.values()) {
    const partition = group.partitions[partitionIndex];
    if (!partition) continue;
    partition.queue.push(entry);
    schedule(engine, group, partition);
  }
}

function schedule(engine: Engine, group: Group, partition: Partition): void {
  if (partition.isDraining || !partition.owner || partition.queue.size === 0) return;
  partition.isDraining = true;
  // A microtask, not a timer: handlers never run inside publish(), and the hot path stays
  // free of timers. The callback is the partition's own, made once (groupOf).
  queueMicrotask(partition.drainSoon);
}

/** Hands the partition's messages to its owner one at a time, until it is empty or has no owner. */
async function drain(engine: Engine, group: Group, partition: Partition): Promise<void> {
  try {
    for (;;) {
      const member = partition.owner;
      const entry = partition.queue.peek();
      if (!member || entry === undefined) return;
      const message = decoded(engine, group, entry);
      if (message === undefined) {
        deadLetter(engine, group, entry, `cannot decode ${group.schema.typeName}: ${entry.decodeError}`, 0);
        partition.queue.shift();
        continue;
      }
      // The first attempt is made here rather than in retryFailed: nearly every message needs
      // no other, and an async call per delivery would cost a promise more.
      let failure: { error: unknown } | undefined;
      member.inFlight++;
      try {
        await member.handler(message, {
          topic: group.topic,
          key: entry.key,
          attempt: 1,
          publishedAtMs: entry.publishedAtMs,
        });
      } catch (error) {
        failure = { error };
      } finally {
        settle(member);
      }
      // Not done means the member left during the retries: the next owner starts the
      // message over (at-least-once, like a Kafka rebalance before the commit).
      const isDone =
        failure === undefined || (await retryFailed(engine, group, partition, member, entry, message, failure.error));
      if (isDone) partition.queue.shift();
    }
  } catch (error) {
    engine.log.error({ err: error, topic: group.topic, group: group.name }, 'in-process bus: partition loop failed');
  } finally {
    partition.isDraining = false;
  }
}

/**
 * After attempt 1 failed with `error`: waits, retries while attempts remain, then dead-letters.
 * Returns true once the message is handled or dead-lettered, false if the member left.
 */
async function retryFailed(
  engine: Engine,
  group: Group,
  partition: Partition,
  member: Member,
  entry: Entry,
  message: Message,
  error: unknown,
): Promise<boolean> {
  const { retry, log } = engine;
  for (let attempt = 1; ; attempt++) {
    // `error` is what attempt `attempt` threw
    if (attempt >= retry.maxAttempts) {
      deadLetter(engine, group, entry, errorMessage(error), attempt);
      return true;
    }
    log.debug(
      { err: error, topic: group.topic, group: group.name, attempt },
      'in-process bus: handler failed, retrying',
    );
    await backoff(partition, backoffMs(retry, attempt));
    if (partition.owner !== member) return false;
    member.inFlight++;
    try {
      await member.handler(message, { topic: group.topic, key: entry.key, attempt: attempt + 1 });
      return true;
    } catch (next) {
      error = next;
    } finally {
      settle(member);
    }
  }
}

/** A handler call of the member ended: a stop() waiting for its calls resumes once none is left. */
function settle(member: Member): void {
  member.inFlight--;
  if (member.inFlight === 0 && member.onIdle.length > 0) for (const resolve of member.onIdle.splice(0)) resolve();
}

/**
 * The entry's message; one published raw is decoded on the first call. Undefined when its bytes
 * cannot be decoded.
 */
function decoded(engine: Engine, group: Group, entry: Entry): Message | undefined {
  if (entry.message !== undefined || entry.decodeError !== undefined || entry.value === undefined) {
    return entry.message;
  }
  try {
    const message = fromBinary(group.schema, entry.value);
    if (engine.freezeMessages) deepFreeze(message);
    entry.message = message;
  } catch (error) {
    entry.decodeError = errorMessage(error);
  }
  return entry.message;
}

function backoff(partition: Partition, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      partition.wake = undefined;
      resolve();
    }, ms);
    partition.wake = () => {
      clearTimeout(timer);
      partition.wake = undefined;
      resolve();
    };
  });
}

function deadLetter(engine: Engine, group: Group, entry: Entry, error: string, attempts: number): void {
  const letter: DeadLetter = {
    group: group.name,
    originalTopic: group.topic,
    key: entry.key,
    value: bytesOf(group, entry).slice(), // a copy: the entry's bytes are shared with other groups
    error,
    attempts,
  };
  engine.log.warn(
    {
      topic: group.topic,
      group: group.name,
      key: entry.key,
      attempts,
      error,
      deadLetterTopic: deadLetterTopic(group.name),
    },
    'in-process bus: message dead-lettered',
  );
  const deadLetters = deadLetterLogOf(engine, group.name);
  deadLetters.letters.push(letter);
  if (deadLetters.letters.length > deadLettersKeptPerGroup) deadLetters.letters.shift();
  for (const reader of deadLetters.readers) read(engine.log, reader, letter);
}

/**
 * The entry's bytes, made from its message on the first call (a dead letter). They are the bytes
 * publish would have encoded: the message holds exactly what decoding them gives.
 */
function bytesOf(group: Group, entry: Entry): Uint8Array {
  if (entry.value !== undefined) return entry.value;
  // enqueue's callers give bytes (publishRaw) or a message (publish)
  if (entry.message === undefined) throw new Error('in-process bus: a queued entry has neither bytes nor message');
  entry.value = toBinary(group.schema, entry.message);
  return entry.value;
}

function deadLetterLogOf(engine: Engine, group: string): DeadLetterLog {
  let deadLetters = engine.deadLetterLogs.get(group);
  if (!deadLetters) {
    deadLetters = { letters: [], readers: new Set() };
    engine.deadLetterLogs.set(group, deadLetters);
  }
  return deadLetters;
}

function read(log: Logger, reader: DeadLetterReader, letter: DeadLetter): void {
  reader.chain = reader.chain.then(async () => {
    if (!reader.isActive) return;
    try {
      await reader.handler(letter);
    } catch (error) {
      // A dead-letter reader is tooling: its failure is reported, never retried or re-queued.
      log.error({ err: error, group: letter.group }, 'in-process bus: dead-letter handler failed');
    }
  });
}

/** Spreads the partitions over the members, round robin in join order. */
function rebalance(engine: Engine, group: Group): void {
  const count = group.members.length;
  group.partitions.forEach((partition, index) => {
    const owner = count === 0 ? undefined : group.members[index % count];
    if (owner === partition.owner) return;
    partition.owner = owner;
    partition.wake?.(); // a retry wait of the previous owner ends; the new owner starts over
    schedule(engine, group, partition);
  });
}

function groupOf(engine: Engine, topic: string, name: string, schema: DescMessage): Group {
  let groups = engine.groupsByTopic.get(topic);
  if (!groups) {
    groups = new Map();
    engine.groupsByTopic.set(topic, groups);
  }
  const existing = groups.get(name);
  if (existing) return existing;
  const group: Group = { name, topic, schema, members: [], partitions: [] };
  for (let i = 0; i < engine.partitionCount; i++) {
    const partition: Partition = {
      queue: new Fifo(),
      owner: undefined,
      isDraining: false,
      wake: undefined,
      drainSoon: () => void drain(engine, group, partition),
    };
    group.partitions.push(partition);
  }
  groups.set(name, group);
  return group;
}

function unknownTopic(topic: string): Error {
  return new Error(`Unknown topic "${topic}": it is not in the bus's topic registry`);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
