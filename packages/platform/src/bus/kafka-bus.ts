import { randomUUID } from 'node:crypto';
import { create, fromBinary, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import {
  Kafka,
  Partitioners,
  logLevel,
  type Admin,
  type Consumer,
  type EachBatchPayload,
  type IHeaders,
  type KafkaMessage,
  type LogEntry,
  type Producer,
  type SASLOptions,
  type TopicMessages,
} from 'kafkajs';
import { createSilentLogger, type Logger } from '../log/logger';
import {
  backoffMs,
  deadLetterTopic,
  defaultRetryPolicy,
  isInstanceGroup,
  kafkaGroupId,
  type Bus,
  type DeadLetter,
  type MessageHandler,
  type RetryPolicy,
  type Subscription,
  type TopicName,
  type TopicRegistry,
} from './bus';
import { createBatcher, type Batcher } from '../batch/batcher';
import { deadLetterHeaders } from './dead-letter-headers';
import { fixKafkajsIdleLoop } from './kafkajs-idle-loop-fix';

/**
 * The Kafka adapter of the bus port; kafkajs is used in this file only.
 *
 * - Topics are created explicitly (admin client) before anything is produced to or consumed
 *   from them, with `partitions(topic)` partitions; the broker's auto-creation is never relied on.
 *   Creation waits until every partition has a leader, and "not ready yet" answers (several
 *   processes creating the same topic at once, a topic a moment old) are tried again for 30 s.
 * - One kafkajs consumer per subscribe call, in the Kafka group `<bus group>.<topic>`
 *   (`kafkaGroupId`: one Kafka group per topic, so a rebalance stops the readers of one topic
 *   only). Messages are handled
 *   with `eachBatch` and `eachBatchAutoResolve: false`: an offset is resolved only once its
 *   handler succeeded or the message went to `<group>.dlq`, and the resolved offsets are
 *   committed before each batch returns (the batches of one fetch share commits). A stop or a rebalance in the middle of a message therefore leaves
 *   it uncommitted, and the next owner of the partition gets it again (at least once).
 * - A brand-new group starts at the end of the topic as of the subscribe call (unless
 *   `fromBeginning`); `subscribe` resolves once the consumer has joined and been assigned, or,
 *   with `joinInBackground`, as soon as that start is pinned (see the option).
 * - Retries happen in place: the partition waits through the backoff (heartbeating), the way the
 *   in-process bus does it.
 * - kafkajs 2.2.4 races during rebalances: a batch that began before a rebalance neither resolves
 *   offsets nor heartbeats once it is over, and a consumer that kafkajs stops for good (a
 *   "non-retriable" TypeError of its own) is replaced by a new one in the same group (see subscribe).
 * - A group of one instance (`instanceGroup`, a fan-out reader) commits no offsets, so the broker
 *   drops it once its member is gone; its dead letters share the service's `<service>.instances.dlq`.
 * - `topicPrefix` goes in front of every topic and group name on the broker, so test runs that
 *   share a broker never see each other; handlers and dead letters always see the plain names.
 */

export interface KafkaConsumerTuning {
  /** kafkajs default 30000. Tests use a few seconds so a departed member is noticed quickly. */
  sessionTimeout?: number;
  /** kafkajs default 3000; must stay well under sessionTimeout. */
  heartbeatInterval?: number;
  /** kafkajs default 60000: how long the broker waits for members to rejoin during a rebalance. */
  rebalanceTimeout?: number;
  /**
   * The longest a fetch waits for data: 1000 here (kafkajs's own default is 5000). A member only
   * notices a rebalance, and a stop only completes, between fetches, so this bounds how long a
   * join, a leave or a shutdown waits; an idle consumer polls once per this period. Messages are
   * not delayed by it: a fetch returns as soon as data arrives.
   */
  maxWaitTimeInMs?: number;
}

export interface KafkaBusOptions<R extends TopicRegistry> {
  topics: R;
  brokers: string[];
  clientId: string;
  /** Put in front of every topic and group name on the broker (e.g. a per-test-run namespace). */
  topicPrefix?: string;
  /** Partitions for a topic created by the bus, given its plain name: 12 for chat.*, else 3. */
  partitions?: (topic: string) => number;
  /** Copies of each topic the bus creates; the broker's default.replication.factor when unset. */
  replicationFactor?: number;
  /** TLS (true, or the CA to trust) and SASL credentials; plain connections when unset. */
  ssl?: boolean | { ca: string[] };
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  retry?: RetryPolicy;
  log?: Logger;
  /**
   * Where a group that has never committed an offset on a topic starts. false (the default): at
   * the end of the topic as of the subscribe call, like the in-process bus. true: at the beginning
   * (tests with fresh, prefixed topics). Either way, a group that exists resumes where it stopped,
   * and its partitions without a committed offset are read from their beginning.
   */
  fromBeginning?: boolean;
  consumer?: KafkaConsumerTuning;
  /**
   * How long a consumer of this topic (in this bus group) waits after handling a fetch's messages before it fetches
   * again, in ms; 0 (the default): it fetches again at once. Each fetch costs a request, the
   * handling of its batches and an offset commit, so on a topic with a message per chat line a
   * short wait (tens of ms) turns many fetches of a message or two into a few larger ones. Only a
   * consumer that just got messages waits: an idle one long-polls as before (maxWaitTimeInMs), so
   * the wait costs nothing when there is no traffic, and adds at most this much latency when there is.
   */
  batchWaitMs?: (topic: string, group: string) => number;
  /** How long `subscribe` waits for the consumer to join its group; 30 s unless told. */
  joinTimeoutMs?: number;
  /**
   * false (the default): `subscribe` resolves once the consumer has joined its group. true (the
   * service processes): it resolves once the consumer's start is pinned, before the join, and the
   * join goes on in the background, tried again until it succeeds; `joining()` lists it meanwhile.
   * A restarted process would otherwise wait for its dead predecessor's session to expire
   * (KAFKA_SESSION_TIMEOUT_MS) before it could serve HTTP. What is published after `subscribe`
   * resolved is still delivered: a new group's start offsets are read before it resolves, and an
   * existing group resumes from its committed offsets.
   */
  joinInBackground?: boolean;
}

export type KafkaBus<R extends TopicRegistry> = Bus<R> & {
  /**
   * Publishes bytes as they are, without encoding: to re-drive a dead letter to its original
   * topic, and for tests of undecodable messages.
   */
  publishRaw(topic: TopicName<R>, key: string, value: Uint8Array): Promise<void>;
};

export function defaultPartitions(topic: string): number {
  return topic.startsWith('chat.') ? 12 : 3;
}

const pingTimeoutMs = 3000;
const maxErrorLength = 2000;
/** How long creating a topic (or reading its offsets) may keep meeting "not ready yet" answers. */
const topicReadyTimeoutMs = 30_000;

/** Kafka's kinds of answer while a topic is being created, possibly by another process, and its leaders elected. */
const notReadyErrorTypes = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_FOR_PARTITION',
  'NOT_CONTROLLER',
  'REQUEST_TIMED_OUT',
]);

/** A kafkajs error (or the one it wraps after its own retries) that says "try again shortly". */
export function isNotReadyYet(error: unknown): boolean {
  const { type, retriable, cause, originalError } = (error ?? {}) as {
    type?: string;
    retriable?: boolean;
    cause?: unknown;
    originalError?: unknown;
  };
  if (type !== undefined && notReadyErrorTypes.has(type)) return true;
  const wrapped = cause ?? originalError;
  if (wrapped !== undefined) return isNotReadyYet(wrapped);
  return retriable === true;
}

/** Kafka's answers to a producer whose idempotence state (producer id, epoch, sequence) it no longer has. */
const lostProducerStateTypes = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
]);

/** A send error (or the one kafkajs wraps after its retries) after which the producer must be replaced. */
export function hasLostProducerState(error: unknown): boolean {
  const { type, cause, originalError } = (error ?? {}) as { type?: string; cause?: unknown; originalError?: unknown };
  if (type !== undefined && lostProducerStateTypes.has(type)) return true;
  const wrapped = cause ?? originalError;
  return wrapped !== undefined && hasLostProducerState(wrapped);
}

class TopicNotReadyError extends Error {
  readonly retriable = true;
  constructor(topic: string) {
    super(`Topic ${topic} has no leader for every partition yet`);
  }
}

/** A group subscription's name ("topic (group)") and whether its consumer is in the group now. */
interface Membership {
  name: string;
  isJoined: boolean;
}

/**
 * What the parts of one bus share: its settings, its clients and its bookkeeping. The parts are
 * module-level functions taking it explicitly (topics, publishing, consumers, subscriptions), so
 * each does one job.
 */
interface KafkaBusContext {
  readonly prefix: string;
  readonly partitionsOf: (topic: string) => number;
  readonly replicationFactor: number | undefined;
  readonly retry: RetryPolicy;
  readonly log: Logger;
  readonly fromBeginning: boolean;
  readonly joinTimeoutMs: number;
  readonly joinInBackground: boolean;
  readonly consumerTuning: KafkaConsumerTuning | undefined;
  readonly batchWaitMs: KafkaBusOptions<TopicRegistry>['batchWaitMs'];
  readonly newKafka: () => Kafka;
  readonly newProducer: () => Producer;
  readonly admin: Admin;
  /** Broker topic name → creation in progress or done. */
  readonly ensuredTopics: Map<string, Promise<void>>;
  readonly subscriptions: Set<Subscription>;
  readonly memberships: Set<Membership>;
  /** Consumer still joining → ends its wait for the join (see startConsumer). */
  readonly joinAborts: WeakMap<Consumer, () => void>;
  /** The tail of the admin calls, run one at a time (see withAdmin). */
  adminQueue: Promise<unknown>;
  /**
   * The producer in use. An idempotent producer whose sequence numbers the broker no longer accepts
   * (after an outage, a broker restart, or kafkajs's own concurrent-send race, tulios/kafkajs#598)
   * fails every later send; it is then replaced by a new one (a new producer id), so that a bus
   * that is back is usable again (the webhook door's spool forwards through it).
   */
  producerInUse: Promise<Producer>;
  /**
   * Publishes leave in batches (batch/batcher.ts): what is published in one turn of the event loop,
   * or while the previous request is in flight, goes in one produce request. One round trip (and
   * one socket write on each side) then carries many messages instead of one.
   */
  readonly batcher: Batcher<TopicMessages>;
  isStopped: boolean;
}

export async function createKafkaBus<R extends TopicRegistry>(options: KafkaBusOptions<R>): Promise<KafkaBus<R>> {
  fixKafkajsIdleLoop();
  const { topics } = options;
  const log = options.log ?? createSilentLogger();
  const { newKafka, newProducer, admin, producer } = await connectClients(options, log);
  const ctx: KafkaBusContext = {
    prefix: options.topicPrefix ?? '',
    partitionsOf: options.partitions ?? defaultPartitions,
    replicationFactor: options.replicationFactor,
    retry: options.retry ?? defaultRetryPolicy,
    log,
    fromBeginning: options.fromBeginning ?? false,
    joinTimeoutMs: options.joinTimeoutMs ?? 30_000,
    joinInBackground: options.joinInBackground ?? false,
    consumerTuning: options.consumer,
    batchWaitMs: options.batchWaitMs,
    newKafka,
    newProducer,
    admin,
    ensuredTopics: new Map(),
    subscriptions: new Set(),
    memberships: new Set(),
    joinAborts: new WeakMap(),
    adminQueue: Promise.resolve(),
    producerInUse: Promise.resolve(producer),
    batcher: createBatcher<TopicMessages>({ sendBatch: (items) => produce(ctx, items) }),
    isStopped: false,
  };

  function assertRunning(): void {
    if (ctx.isStopped) throw new Error('The bus is stopped');
  }

  const bus: KafkaBus<R> = {
    async publish(topic, key, message) {
      assertRunning();
      const schema = topics[topic];
      if (!schema) throw unknownTopic(topic);
      await send(ctx, topic, key, toBinary(schema, create(schema, message)));
    },

    async publishRaw(topic, key, value) {
      assertRunning();
      if (!topics[topic]) throw unknownTopic(topic);
      await send(ctx, topic, key, value);
    },

    async subscribe(topic, group, handler) {
      assertRunning();
      const schema = topics[topic];
      if (!schema) throw unknownTopic(topic);
      return subscribeGroup(ctx, { topic, group, schema, handler });
    },

    async subscribeDeadLetters(group, handler) {
      assertRunning();
      return subscribeDeadLetters(ctx, group, handler);
    },

    joining() {
      return [...ctx.memberships].filter((membership) => !membership.isJoined).map((membership) => membership.name);
    },

    ping: () => ping(ctx),

    async stop() {
      if (ctx.isStopped) return;
      ctx.isStopped = true;
      await Promise.allSettled([...ctx.subscriptions].map((subscription) => subscription.stop()));
      const current = await ctx.producerInUse;
      await Promise.allSettled([current.disconnect(), admin.disconnect()]);
    },
  };
  return bus;
}

/** The bus's kafkajs clients: its admin and its producer, connected, and how to make more. */
async function connectClients<R extends TopicRegistry>(
  options: KafkaBusOptions<R>,
  log: Logger,
): Promise<{ newKafka: () => Kafka; newProducer: () => Producer; admin: Admin; producer: Producer }> {
  const newKafka = (): Kafka =>
    new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: logLevel.WARN,
      logCreator: pinoLogCreator(log),
      connectionTimeout: 3000,
      ...(options.ssl ? { ssl: options.ssl } : {}),
      ...(options.sasl ? { sasl: saslOptionsOf(options.sasl) } : {}),
    });
  const kafka = newKafka();
  const admin = kafka.admin();
  const newProducer = (): Producer =>
    kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // Named explicitly: Java-compatible murmur2 (kafkajs 2's default), and no warning about it.
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  const producer = newProducer();
  try {
    await admin.connect();
    await producer.connect();
  } catch (error) {
    await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
    throw error;
  }
  return { newKafka, newProducer, admin, producer };
}

function onBroker(ctx: KafkaBusContext, name: string): string {
  return `${ctx.prefix}${name}`;
}

// kafkajs's admin keeps one metadata cache, and a metadata call for some topics replaces it with
// those topics only: a concurrent call that had just refreshed it for its own topic then finds
// nothing (fetchTopicOffsets fails with a TypeError). So admin calls run one at a time.
function withAdmin<T>(ctx: KafkaBusContext, action: (client: Admin) => Promise<T>): Promise<T> {
  const result = ctx.adminQueue.then(
    () => action(ctx.admin),
    () => action(ctx.admin),
  );
  ctx.adminQueue = result.catch(() => undefined);
  return result;
}

/**
 * Runs an admin call again while Kafka answers "not ready yet". When every service starts at once
 * (docker compose up, a fresh cluster), several processes create the same topics together: the
 * losers get "already exists" while the topic has no leader yet, and the metadata or offsets of a
 * topic created a moment ago may still answer "unknown topic" or "not the leader".
 */
async function untilReady<T>(ctx: KafkaBusContext, what: string, action: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + topicReadyTimeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      if (ctx.isStopped || Date.now() >= deadline || !isNotReadyYet(error)) throw error;
      ctx.log.debug({ err: error, attempt }, `kafka bus: ${what}: not ready yet, trying again`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(100 * 2 ** (attempt - 1), 1000)));
    }
  }
}

function ensureTopic(ctx: KafkaBusContext, name: string): Promise<void> {
  const topic = onBroker(ctx, name);
  let ensured = ctx.ensuredTopics.get(topic);
  if (!ensured) {
    ensured = untilReady(ctx, `creating ${topic}`, () =>
      withAdmin(ctx, async (client) => {
        // false when it exists already, maybe created by another process a moment ago
        await client.createTopics({
          topics: [{ topic, numPartitions: ctx.partitionsOf(name), replicationFactor: ctx.replicationFactor ?? -1 }],
          waitForLeaders: false,
        });
        const { topics: found } = await client.fetchTopicMetadata({ topics: [topic] });
        const partitions = found[0]?.partitions ?? [];
        if (partitions.length === 0 || partitions.some((partition) => partition.leader < 0)) {
          throw new TopicNotReadyError(topic);
        }
      }),
    );
    // A failed creation is tried again next time rather than cached.
    ensured.catch(() => ctx.ensuredTopics.delete(topic));
    ctx.ensuredTopics.set(topic, ensured);
  }
  return ensured;
}

/** Replaces the producer that lost its idempotence state (see KafkaBusContext.producerInUse). */
function replaceProducer(ctx: KafkaBusContext, failed: Producer): void {
  ctx.producerInUse = ctx.producerInUse.then(async (current) => {
    if (current !== failed || ctx.isStopped) return current;
    const next = ctx.newProducer();
    try {
      await next.connect();
    } catch (error) {
      await next.disconnect().catch(() => undefined);
      ctx.log.warn({ err: error }, 'kafka bus: could not connect a new producer; the next failing send tries again');
      return current;
    }
    void failed.disconnect().catch(() => undefined);
    ctx.log.warn('kafka bus: the producer lost its idempotence state; a new one took over');
    return next;
  });
}

/** Sends one batch of publishes as one produce request (the batcher's sendBatch). */
async function produce(ctx: KafkaBusContext, items: TopicMessages[]): Promise<void> {
  const current = await ctx.producerInUse;
  try {
    await current.sendBatch({ acks: -1, topicMessages: byTopic(items) });
  } catch (error) {
    if (hasLostProducerState(error)) replaceProducer(ctx, current);
    throw error;
  }
}

async function send(
  ctx: KafkaBusContext,
  name: string,
  key: string,
  value: Uint8Array,
  headers?: IHeaders,
): Promise<void> {
  await ensureTopic(ctx, name);
  await ctx.batcher.send({
    topic: onBroker(ctx, name),
    messages: [{ key, value: Buffer.from(value.buffer, value.byteOffset, value.byteLength), headers }],
  });
}

/**
 * Each consumer gets a kafkajs client of its own. A kafkajs client keeps one table of committed
 * offsets per group id, shared by every consumer it makes, and a consumer that (re)joins clears
 * the whole table and refills only its own topics. With one consumer per subscribe call, the
 * others of the same group then met a table without their topic at their next fetch and crashed
 * ("Cannot read properties of undefined (reading '0')", a KafkaJSNonRetriableError) at every
 * rebalance of the group. Kafka groups are now per topic too (`kafkaGroupId`), so no two
 * consumers share a group id; a client each keeps that true even for two subscriptions of one
 * topic and group in one process.
 */
function consumerFor(ctx: KafkaBusContext, groupId: string): Consumer {
  return ctx.newKafka().consumer({
    groupId,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: 1000,
    ...ctx.consumerTuning,
  });
}

async function committedOffsets(
  ctx: KafkaBusContext,
  groupId: string,
  topic: string,
): Promise<Map<number, bigint> | undefined> {
  const [offsets] = await untilReady(ctx, `reading ${groupId}'s offsets`, () =>
    withAdmin(ctx, (client) => client.fetchOffsets({ groupId, topics: [topic] })),
  );
  const committed = (offsets?.partitions ?? []).filter((partition) => Number(partition.offset) >= 0);
  if (committed.length === 0) return undefined;
  return new Map(committed.map(({ partition, offset }) => [partition, BigInt(offset)]));
}

/**
 * Where a group that has never committed an offset on this topic starts. Before groups were kept
 * per topic, one group per service read all its topics (`legacyGroupId`): where that group
 * stopped is where this one goes on, so an upgrade neither replays nor skips anything. A group
 * that is new in every sense starts where each partition ends right now: its consumer skips (and
 * commits past) everything before, so what is published after subscribe() resolved is
 * delivered, what came before is not, as on the in-process bus. (Starting kafkajs at "latest"
 * instead would resolve the end only at the first fetch, after the join, and miss what came in
 * between; kafkajs's seek and admin.setOffsets, the other ways to pin a start, crash on a
 * rebalance during the first fetch and never commit, respectively.)
 */
async function startOfNewGroup(
  ctx: KafkaBusContext,
  groupId: string,
  legacyGroupId: string,
  topic: string,
): Promise<Map<number, bigint> | undefined> {
  if (await committedOffsets(ctx, groupId, topic)) return undefined;
  const legacy = (await committedOffsets(ctx, legacyGroupId, topic)) ?? new Map<number, bigint>();
  const ends = await untilReady(ctx, `reading ${topic}'s end offsets`, () =>
    withAdmin(ctx, (client) => client.fetchTopicOffsets(topic)),
  );
  return new Map(ends.map(({ partition, high }) => [partition, legacy.get(partition) ?? BigInt(high)]));
}

/** Connects, subscribes and runs a consumer; resolves once it has joined and been assigned. */
async function startConsumer(
  ctx: KafkaBusContext,
  consumer: Consumer,
  topic: string,
  run: Parameters<Consumer['run']>[0],
): Promise<void> {
  let removeListeners: Array<() => void> = [];
  let timer: NodeJS.Timeout | undefined;
  let isAborted = false;
  const whenAborted = (): void => {
    if (isAborted) throw new Error('The consumer was stopped before it joined its group');
  };
  const joined = new Promise<void>((resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Consumer did not join its group within ${ctx.joinTimeoutMs} ms`)),
      ctx.joinTimeoutMs,
    );
    removeListeners = [
      consumer.on(consumer.events.GROUP_JOIN, () => resolve()),
      consumer.on(consumer.events.CRASH, (event) => {
        if (event.payload.restart) return; // kafkajs restarts it; the join may still come
        reject(event.payload.error);
      }),
    ];
    // stopped while joining (a SIGTERM during a background join): no join will come, and the
    // stop disconnects the consumer itself. (kafkajs's own DISCONNECT event would not do: it
    // also comes before kafkajs restarts a consumer after a retriable crash.)
    ctx.joinAborts.set(consumer, () => {
      isAborted = true;
      reject(new Error('The consumer was stopped before it joined its group'));
    });
  });
  // Awaited below unless connect/subscribe/run fail first; then nobody waits for it any more.
  joined.catch(() => undefined);
  try {
    await consumer.connect();
    whenAborted();
    // Partitions without a committed offset start at their beginning: in a group that exists,
    // nothing published while all its members were away is lost (as on the in-process bus);
    // a brand-new group skips what predates it (see startOfNewGroup).
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    whenAborted();
    await consumer.run(run);
    await joined;
  } catch (error) {
    // also after a stop, which may have disconnected it while it was still connecting
    await consumer.disconnect().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
    ctx.joinAborts.delete(consumer);
    for (const remove of removeListeners) remove();
  }
}

/** The bus was stopped while this subscription was joining: it must not outlive the bus. */
async function stopIfBusStopped(ctx: KafkaBusContext, subscription: Subscription): Promise<void> {
  if (!ctx.isStopped) return;
  await subscription.stop();
  throw new Error('The bus is stopped');
}

function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > maxErrorLength ? `${message.slice(0, maxErrorLength)}…` : message;
}

interface GroupSubscribe<S extends DescMessage> {
  topic: string;
  group: string;
  schema: S;
  handler: MessageHandler<MessageShape<S>>;
}

/** Where a subscription's consumers read, and how they run (the same for each consumer it starts). */
interface MemberTarget {
  topic: string;
  group: string;
  groupId: string;
  brokerTopic: string;
  runConfig: Parameters<Consumer['run']>[0];
}

/** One group subscription's consumer over its life: started, replaced after a fatal crash, stopped. */
interface MemberState {
  consumer: Consumer | undefined;
  isClosing: boolean;
  membership: Membership;
  /**
   * Moves on at every rebalance (and every new consumer). kafkajs rejoins as soon as one batch
   * sees the rebalance, while the batches of other partitions may still be in their handlers;
   * a batch that began in an older generation must then neither resolve offsets nor heartbeat
   * (that corrupts kafkajs's offset bookkeeping of the new generation, tulios/kafkajs#1366).
   * Its unresolved messages go to whoever owns the partition now (at least once).
   */
  generation: number;
}

async function subscribeGroup<S extends DescMessage>(
  ctx: KafkaBusContext,
  { topic, group, schema, handler }: GroupSubscribe<S>,
): Promise<Subscription> {
  await Promise.all([ensureTopic(ctx, topic), ensureTopic(ctx, deadLetterTopic(group))]);
  const brokerTopic = onBroker(ctx, topic);
  const groupId = onBroker(ctx, kafkaGroupId(group, topic));
  const skipBefore = ctx.fromBeginning
    ? undefined
    : await startOfNewGroup(ctx, groupId, onBroker(ctx, group), brokerTopic);
  const member: MemberState = {
    consumer: undefined,
    isClosing: false,
    membership: { name: `${topic} (${group})`, isJoined: false },
    generation: 0,
  };
  const worker = createWorker({
    topic,
    group,
    schema,
    handler,
    retry: ctx.retry,
    log: ctx.log,
    errorMessage,
    skipBefore,
    batchWaitMs: ctx.batchWaitMs?.(topic, group) ?? 0,
    // a group of one instance commits nothing, so Kafka forgets it once the instance is gone
    commits: !isInstanceGroup(group),
    generation: () => member.generation,
    deadLetter: (key, value, headers) => send(ctx, deadLetterTopic(group), key, value, headers),
  });
  const runConfig: Parameters<Consumer['run']>[0] = {
    // the worker commits (see createWorker's committer)
    autoCommit: false,
    eachBatchAutoResolve: false,
    // Different partitions (keys) are handled in parallel; one partition stays sequential.
    partitionsConsumedConcurrently: Math.max(1, ctx.partitionsOf(topic)),
    eachBatch: worker.eachBatch,
  };
  const target: MemberTarget = { topic, group, groupId, brokerTopic, runConfig };
  ctx.memberships.add(member.membership);
  if (ctx.joinInBackground) {
    void relaunch(ctx, member, target);
  } else {
    try {
      await launch(ctx, member, target);
    } catch (error) {
      ctx.memberships.delete(member.membership);
      throw error;
    }
  }
  const subscription = memberSubscription(ctx, member, worker);
  ctx.subscriptions.add(subscription);
  await stopIfBusStopped(ctx, subscription);
  return subscription;
}

/**
 * Starts a consumer for the subscription. A kafkajs consumer that crashes with an error it deems
 * not retriable stops for good: it has left the group, and nothing would read this subscription
 * again. kafkajs 2.2.4 did that at every rebalance while consumers of one group shared a client
 * (see consumerFor), and may on other races of its own (tulios/kafkajs#558, #1366). So such a
 * crash starts a fresh consumer in the same group; it resumes from the committed offsets (at
 * least once, as after any rebalance).
 */
async function launch(ctx: KafkaBusContext, member: MemberState, target: MemberTarget): Promise<void> {
  const next = consumerFor(ctx, target.groupId);
  member.generation++;
  next.on(next.events.REBALANCING, () => member.generation++);
  next.on(next.events.GROUP_JOIN, () => member.generation++);
  let isJoined = false;
  next.on(next.events.CRASH, (event) => {
    if (event.payload.restart || !isJoined || member.isClosing || ctx.isStopped) return;
    member.membership.isJoined = false;
    ctx.log.warn(
      { err: event.payload.error, topic: target.topic, group: target.group },
      'kafka bus: consumer crashed and kafkajs will not restart it; starting a new one',
    );
    void relaunch(ctx, member, target);
  });
  member.consumer = next;
  await startConsumer(ctx, next, target.brokerTopic, target.runConfig);
  isJoined = true;
  member.membership.isJoined = true;
  if (member.isClosing) await next.disconnect();
}

/** Launches until a consumer is in, or the subscription or the bus stops. */
async function relaunch(ctx: KafkaBusContext, member: MemberState, target: MemberTarget): Promise<void> {
  for (let attempt = 1; !member.isClosing && !ctx.isStopped; attempt++) {
    try {
      await launch(ctx, member, target);
      return;
    } catch (error) {
      if (member.isClosing || ctx.isStopped) return;
      ctx.log.error(
        { err: error, topic: target.topic, group: target.group, attempt },
        'kafka bus: could not start a consumer; retrying',
      );
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * attempt, 10_000)));
    }
  }
}

function memberSubscription(
  ctx: KafkaBusContext,
  member: MemberState,
  worker: Pick<Worker, 'stop' | 'idle'>,
): Subscription {
  let stopping: Promise<void> | undefined;
  const subscription: Subscription = {
    stop() {
      member.isClosing = true;
      stopping ??= (async () => {
        worker.stop(); // no handler call starts from here on; a retry wait ends now
        if (member.consumer) ctx.joinAborts.get(member.consumer)?.();
        await member.consumer?.disconnect(); // waits for the batch in flight, commits, leaves the group
        await worker.idle();
        ctx.subscriptions.delete(subscription);
        ctx.memberships.delete(member.membership);
      })();
      return stopping;
    },
  };
  return subscription;
}

async function subscribeDeadLetters(
  ctx: KafkaBusContext,
  group: string,
  handler: (deadLetter: DeadLetter) => Promise<void>,
): Promise<Subscription> {
  const name = deadLetterTopic(group);
  await ensureTopic(ctx, name);
  // A throwaway group that commits nothing: every reader reads the whole dead-letter topic,
  // and leaves no group state behind.
  const consumer = consumerFor(ctx, onBroker(ctx, `${name}.reader.${randomUUID()}`));
  let isActive = true;
  await startConsumer(ctx, consumer, onBroker(ctx, name), {
    autoCommit: false,
    eachMessage: async ({ message }) => {
      if (!isActive) return;
      try {
        await handler(readDeadLetter(group, message));
      } catch (error) {
        ctx.log.error({ err: error, group }, 'kafka bus: dead-letter handler failed');
      }
    },
  });
  let stopping: Promise<void> | undefined;
  const subscription: Subscription = {
    stop() {
      stopping ??= (async () => {
        isActive = false;
        await consumer.disconnect();
        ctx.subscriptions.delete(subscription);
      })();
      return stopping;
    },
  };
  ctx.subscriptions.add(subscription);
  await stopIfBusStopped(ctx, subscription);
  return subscription;
}

async function ping(ctx: KafkaBusContext): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      withAdmin(ctx, (client) => client.describeCluster()),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Kafka did not answer within ${pingTimeoutMs} ms`)), pingTimeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface WorkerOptions<S extends DescMessage> {
  topic: string;
  group: string;
  schema: S;
  handler: MessageHandler<MessageShape<S>>;
  retry: RetryPolicy;
  log: Logger;
  errorMessage: (error: unknown) => string;
  /** Partition → first offset to handle; earlier ones are skipped (a new group's start). */
  skipBefore: Map<number, bigint> | undefined;
  /** How long a batch waits, once handled, before kafkajs fetches again (KafkaBusOptions.batchWaitMs). */
  batchWaitMs: number;
  /** Whether handled offsets are committed (not for a group of one instance). */
  commits: boolean;
  /** The consumer group generation as this subscription counts it (see subscribe). */
  generation: () => number;
  deadLetter: (key: string, value: Uint8Array, headers: IHeaders) => Promise<void>;
}

/** What a batch's payload offers for committing its group's offsets. */
type CommitAccess = Pick<EachBatchPayload, 'commitOffsetsIfNecessary' | 'uncommittedOffsets'>;

export interface Worker {
  /** kafkajs's eachBatch: handles the batch's messages, then commits what they resolved. */
  eachBatch(payload: EachBatchPayload): Promise<void>;
  /** No handler call starts from here on; a retry wait (or a batch wait) ends now. */
  stop(): void;
  /** Resolves once no handler call is in flight. */
  idle(): Promise<void>;
}

/** A worker's mutable state, shared by its parts below. */
interface WorkerState {
  isStopping: boolean;
  /** Handler calls running now. */
  inFlight: number;
  onIdle: Array<() => void>;
  /** Ends each sleep in progress (a stop does not wait out a backoff). */
  wakes: Set<() => void>;
}

/** The per-subscription message loop: decode, call the handler, retry, dead-letter, commit. Exported for its tests. */
export function createWorker<S extends DescMessage>(options: WorkerOptions<S>): Worker {
  const state: WorkerState = { isStopping: false, inFlight: 0, onIdle: [], wakes: new Set() };
  const committer = createCommitter();
  return {
    async eachBatch(payload: EachBatchPayload): Promise<void> {
      let isHandled = false;
      try {
        await handleBatch(options, state, payload);
        isHandled = true;
      } finally {
        // A commit that fails after a handled batch fails the batch (kafkajs rejoins on a
        // rebalance); after a batch cut short (a stop, a rebalance) what it resolved is committed
        // if the group still takes it, as kafkajs's autoCommit did.
        if (options.commits) {
          const committed = committer.send(payload);
          await (isHandled ? committed : committed.catch(() => undefined));
        }
      }
      // kafkajs fetches again once every batch of its last fetch returned: what arrives meanwhile
      // comes in that next fetch, together
      if (options.batchWaitMs > 0 && !state.isStopping) await sleep(state, options.batchWaitMs);
    },
    stop(): void {
      state.isStopping = true;
      for (const wake of [...state.wakes]) wake();
    },
    idle(): Promise<void> {
      return state.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => state.onIdle.push(resolve));
    },
  };
}

function sleep(state: WorkerState, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const wake = (): void => {
      clearTimeout(timer);
      state.wakes.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    state.wakes.add(wake);
  });
}

/**
 * Offsets are committed here rather than by kafkajs: its autoCommit sends one OffsetCommit after
 * every partition's batch, so a fetch with messages on k partitions cost k commits, at chat rates
 * about one per message. The batches of one fetch share commits instead (batch/batcher.ts): the
 * first to finish commits everything resolved so far, those finishing meanwhile share the next.
 * Each batch still returns only once its offsets are committed, as with autoCommit.
 */
function createCommitter(): Batcher<CommitAccess> {
  return createBatcher<CommitAccess>({
    async sendBatch(items) {
      const latest = items[items.length - 1];
      if (latest) await latest.commitOffsetsIfNecessary(latest.uncommittedOffsets());
    },
  });
}

async function handleBatch<S extends DescMessage>(
  options: WorkerOptions<S>,
  state: WorkerState,
  { batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload,
): Promise<void> {
  const start = options.skipBefore?.get(batch.partition);
  const generation = options.generation();
  const isCurrent = (): boolean => options.generation() === generation;
  for (const message of batch.messages) {
    if (state.isStopping || !isRunning() || isStale() || !isCurrent()) return;
    if (start !== undefined && BigInt(message.offset) < start) {
      resolveOffset(message.offset); // published before the group existed
      continue;
    }
    if (!(await handleMessage(options, state, message, batch.partition, heartbeat, isCurrent))) return;
    // handled, but a rebalance came meanwhile: this batch no longer speaks for the partition
    if (!isCurrent()) return;
    resolveOffset(message.offset);
    await heartbeat();
  }
}

/** Returns true once the message is handled or dead-lettered, false when stopping first. */
async function handleMessage<S extends DescMessage>(
  options: WorkerOptions<S>,
  state: WorkerState,
  message: KafkaMessage,
  partition: number,
  heartbeat: () => Promise<void>,
  isCurrent: () => boolean,
): Promise<boolean> {
  const { topic, group, schema, handler, retry, log, errorMessage } = options;
  const key = message.key?.toString('utf8') ?? '';
  const value: Uint8Array = message.value ?? new Uint8Array(0);
  const toDeadLetter = (error: string, attempts: number): Promise<void> =>
    deadLetterMessage(options, { message, partition, key, value }, error, attempts);
  let decoded: MessageShape<S>;
  try {
    decoded = fromBinary(schema, value);
  } catch (error) {
    await toDeadLetter(`cannot decode ${schema.typeName}: ${errorMessage(error)}`, 0);
    return true;
  }
  const publishedAtMs = publishedAtOf(message);
  for (let attempt = 1; ; attempt++) {
    if (state.isStopping) return false;
    state.inFlight++;
    try {
      await handler(decoded, { topic, key, attempt, publishedAtMs });
      return true;
    } catch (error) {
      if (attempt >= retry.maxAttempts) {
        await toDeadLetter(errorMessage(error), attempt);
        return true;
      }
      log.debug({ err: error, topic, group, attempt }, 'kafka bus: handler failed, retrying');
    } finally {
      state.inFlight--;
      if (state.inFlight === 0) for (const resolve of state.onIdle.splice(0)) resolve();
    }
    await sleep(state, backoffMs(retry, attempt));
    if (state.isStopping || !isCurrent()) return false;
    // Keeps the session alive through long retries; throws when the group is rebalancing,
    // which ends this batch with the message unresolved (the next owner gets it again).
    await heartbeat();
  }
}

/** A message as read, with its decoded key and value. */
interface ReadMessage {
  message: KafkaMessage;
  partition: number;
  key: string;
  value: Uint8Array;
}

async function deadLetterMessage<S extends DescMessage>(
  options: WorkerOptions<S>,
  { message, partition, key, value }: ReadMessage,
  error: string,
  attempts: number,
): Promise<void> {
  const { topic, group } = options;
  options.log.warn(
    { topic, group, key, attempts, error, deadLetterTopic: deadLetterTopic(group) },
    'kafka bus: message dead-lettered',
  );
  await options.deadLetter(key, value, {
    [deadLetterHeaders.originalTopic]: topic,
    [deadLetterHeaders.originalKey]: key,
    [deadLetterHeaders.originalPartition]: String(partition),
    [deadLetterHeaders.originalOffset]: message.offset,
    [deadLetterHeaders.group]: group,
    [deadLetterHeaders.error]: error,
    [deadLetterHeaders.attempts]: String(attempts),
  });
}

/**
 * When the message was published: its Kafka timestamp, the producer's create time (kafkajs stamps
 * every message it sends) or the broker's append time where the topic is set to it. Whole
 * milliseconds, from the producer's clock: a consumer's clock ahead of it makes the bus wait look
 * longer, behind it shorter (kickstand_bus_wait_seconds counts a negative wait as 0).
 */
function publishedAtOf(message: KafkaMessage): number | undefined {
  const ms = Number(message.timestamp);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

function readDeadLetter(group: string, message: KafkaMessage): DeadLetter {
  const header = (name: string): string => {
    const value = message.headers?.[name];
    const first = Array.isArray(value) ? value[0] : value;
    return first === undefined ? '' : first.toString();
  };
  return {
    group,
    originalTopic: header(deadLetterHeaders.originalTopic),
    key: header(deadLetterHeaders.originalKey) || (message.key?.toString('utf8') ?? ''),
    // A plain Uint8Array (not a Buffer), as the in-process bus hands out.
    value: new Uint8Array(message.value ?? new Uint8Array(0)),
    error: header(deadLetterHeaders.error),
    attempts: Number(header(deadLetterHeaders.attempts)),
  };
}

/** One entry per topic, in the order topics first appear; each topic's messages keep their order. */
function byTopic(items: readonly TopicMessages[]): TopicMessages[] {
  const topics = new Map<string, TopicMessages>();
  for (const { topic, messages } of items) {
    const entry = topics.get(topic);
    if (entry) entry.messages.push(...messages);
    else topics.set(topic, { topic, messages: [...messages] });
  }
  return [...topics.values()];
}

/** Routes kafkajs's own logging to pino instead of the console. */
function pinoLogCreator(log: Logger): () => (entry: LogEntry) => void {
  const kafkaLog = log.child({ component: 'kafkajs' });
  return () =>
    ({ namespace, level, log: { message, timestamp: _timestamp, ...extra } }) => {
      const fields = { namespace, ...extra };
      // kafkajs's connection logs every error answer as an error, also the routine ones that are
      // answered by a retry: "rebalancing" to a heartbeat (the Runner's warning says enough), and
      // "already exists" / "unknown topic" / "not the leader" / "coordinator loading" while the
      // processes create their topics together at start (untilReady tries again).
      if (namespace === 'Connection' && isRoutineAnswer(String(extra.error))) kafkaLog.debug(fields, message);
      else if (level === logLevel.ERROR) kafkaLog.error(fields, message);
      else if (level === logLevel.WARN) kafkaLog.warn(fields, message);
      else if (level === logLevel.INFO) kafkaLog.info(fields, message);
      else kafkaLog.debug(fields, message);
    };
}

const routineAnswers = [
  'rebalancing',
  'Topic creation errors',
  'does not host this topic-partition',
  'not the leader for that topic-partition',
  'coordinator is loading',
];

function isRoutineAnswer(error: string): boolean {
  return routineAnswers.some((answer) => error.includes(answer));
}

/** kafkajs types each mechanism apart. */
function saslOptionsOf(sasl: NonNullable<KafkaBusOptions<TopicRegistry>['sasl']>): SASLOptions {
  const { username, password } = sasl;
  switch (sasl.mechanism) {
    case 'plain':
      return { mechanism: 'plain', username, password };
    case 'scram-sha-256':
      return { mechanism: 'scram-sha-256', username, password };
    case 'scram-sha-512':
      return { mechanism: 'scram-sha-512', username, password };
  }
}

function unknownTopic(topic: string): Error {
  return new Error(`Unknown topic "${topic}": it is not in the bus's topic registry`);
}
