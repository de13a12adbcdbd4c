import type { DescMessage, MessageInitShape, MessageShape } from '@bufbuild/protobuf';

/**
 * The event bus port. Messages are protobuf messages (proto/), one schema per topic. They travel
 * encoded on Kafka; the in-process bus hands its groups what decoding them would give and refuses
 * at publish exactly what encoding refuses (decoded-copy.ts), so tests on it meet Kafka's rules.
 *
 * Delivery is at least once: a handler may see a message again after a crash or a rebalance, so
 * handlers must be idempotent. A handler that throws is retried with backoff; after the last
 * attempt the message goes to the dead-letter topic `<group>.dlq` and the group moves on.
 *
 * Groups: subscribers that share a group share the messages (each message reaches one of them);
 * every group receives every message. Messages with the same key are handled in publish order.
 */

/** Topic name → the proto message schema that travels on it. */
export type TopicRegistry = Record<string, DescMessage>;

export type TopicName<R extends TopicRegistry> = keyof R & string;

/** What a handler receives next to the decoded message. */
export interface DeliveryInfo {
  topic: string;
  key: string;
  /** 1 on the first delivery, then 2, 3… on retries. */
  attempt: number;
  /**
   * When the message was published, in wall-clock milliseconds: fractional on the in-process bus,
   * the message's timestamp on Kafka. How long it waited is measured from here
   * (kickstand_bus_wait_seconds). Absent when the adapter does not know it.
   */
  publishedAtMs?: number;
}

export type MessageHandler<M> = (message: M, info: DeliveryInfo) => Promise<void>;

export interface Subscription {
  /** Stops receiving: waits for the handler call in flight, then leaves the group. */
  stop(): Promise<void>;
}

/** A message that failed every attempt, as read back from `<group>.dlq`. */
export interface DeadLetter {
  group: string;
  originalTopic: string;
  key: string;
  /** The original protobuf bytes, untouched. */
  value: Uint8Array;
  /** The last error's message. */
  error: string;
  attempts: number;
}

export interface RetryPolicy {
  /** Total handler calls for one message, the first included. */
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 5, initialBackoffMs: 200, maxBackoffMs: 5000 };

export interface Bus<R extends TopicRegistry> {
  /** Resolves once the message is accepted by the bus (not once it is handled). */
  publish<T extends TopicName<R>>(topic: T, key: string, message: MessageInitShape<R[T]>): Promise<void>;
  subscribe<T extends TopicName<R>>(
    topic: T,
    group: string,
    handler: MessageHandler<MessageShape<R[T]>>,
  ): Promise<Subscription>;
  /** Reads the dead-letter topic of a group (operators' tooling and tests). */
  subscribeDeadLetters(group: string, handler: (deadLetter: DeadLetter) => Promise<void>): Promise<Subscription>;
  /** Throws when the bus cannot be reached (used by /readyz). */
  ping(): Promise<void>;
  /**
   * The subscriptions that are not receiving yet, as "topic (group)": on Kafka, a consumer still
   * joining its group in the background or being replaced after a crash. Empty when all work
   * (used by /readyz).
   */
  joining(): string[];
  /** Stops every subscription and disconnects; waits for handler calls in flight. */
  stop(): Promise<void>;
}

/** Delay before attempt `attempt + 1`, doubling from the initial backoff up to the maximum. */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** (attempt - 1));
}

/**
 * A consumer group of one instance, for a reader that every instance of a service must run (a
 * fan-out: realtime's sockets, an in-memory read model), where a shared group would hand each
 * event to one instance only. On Kafka such a group commits no offsets, so the broker forgets it
 * once its instance has left (or its session expired), and its dead letters go to one topic per
 * service, `<service>.instances.dlq`: pods that come and go leave no groups or topics behind. Like
 * any new group it starts at the end of its topics, so what it reads must be rebuilt at start.
 */
export function instanceGroup(service: string, instanceId: string): string {
  return `${service}.instance.${instanceId}`;
}

const instanceGroupPattern = /^([A-Za-z0-9_-]+)\.instance\./;

export function isInstanceGroup(group: string): boolean {
  return instanceGroupPattern.test(group);
}

/**
 * The Kafka consumer group of one topic read by one bus group: `<group>.<topic>`. Each topic gets
 * its own Kafka group, so the consumers of a service's other topics never take part in its
 * rebalances: a member that rejoins (a restart, a crash, every session after a broker outage)
 * stops only the readers of its own topic, and only for as long as that topic's members take to
 * rejoin. One Kafka group for all of a service's topics made every such event a rebalance of all
 * its consumers at once. In issue 16's drill (a 30 s Kafka pause under load) that meant ~20 s of
 * chained rebalances and kafkajs crashing in them ("Cannot read properties of undefined", its
 * bookkeeping of a topic the member no longer owns); with a group per topic the rebalances were
 * over within a second and that crash did not occur.
 */
export function kafkaGroupId(group: string, topic: string): string {
  return `${group}.${topic}`;
}

/** `<group>.dlq`; for a group of one instance, the service's `<service>.instances.dlq`. */
export function deadLetterTopic(group: string): string {
  const instance = instanceGroupPattern.exec(group);
  return instance ? `${instance[1]}.instances.dlq` : `${group}.dlq`;
}
