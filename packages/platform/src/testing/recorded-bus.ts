import { create, fromBinary, toBinary, type MessageShape } from '@bufbuild/protobuf';
import type { Bus, TopicName, TopicRegistry } from '../bus/bus';

export interface PublishedMessage<M> {
  key: string;
  message: M;
}

export interface RecordedBus<R extends TopicRegistry> {
  /** Use this bus in the code under test: it publishes through the wrapped one and records. */
  bus: Bus<R>;
  /** What was published on a topic, in order, decoded as a subscriber would receive it. */
  published<T extends TopicName<R>>(topic: T): Array<MessageShape<R[T]>>;
  /** The same, with each message's key. */
  publishedWithKeys<T extends TopicName<R>>(topic: T): Array<PublishedMessage<MessageShape<R[T]>>>;
  /** Forgets what was recorded so far. */
  clear(): void;
}

/**
 * Wraps a bus to record what is published, per topic, for assertions in service tests:
 * `expect(recorded.published('command.changed')).toHaveLength(1)`. The topic registry is needed to
 * decode: each message is recorded after an encode/decode round trip, so it equals what a
 * subscriber receives (defaults filled in, `$typeName` set). Only successful publishes are
 * recorded. Subscriptions and stop go to the wrapped bus unchanged.
 */
export function recordPublished<R extends TopicRegistry>(bus: Bus<R>, topics: R): RecordedBus<R> {
  const byTopic = new Map<string, Array<PublishedMessage<unknown>>>();

  const recorded: Bus<R> = {
    async publish(topic, key, message) {
      await bus.publish(topic, key, message);
      const schema = topics[topic];
      if (!schema) throw new Error(`Unknown topic "${topic}": it is not in the topic registry`);
      const decoded = fromBinary(schema, toBinary(schema, create(schema, message)));
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), { key, message: decoded }]);
    },
    subscribe: (topic, group, handler) => bus.subscribe(topic, group, handler),
    subscribeDeadLetters: (group, handler) => bus.subscribeDeadLetters(group, handler),
    ping: () => bus.ping(),
    joining: () => bus.joining(),
    stop: () => bus.stop(),
  };

  function publishedWithKeys<T extends TopicName<R>>(topic: T): Array<PublishedMessage<MessageShape<R[T]>>> {
    // Only publish(topic, …) writes under this topic, with messages of its schema.
    return [...((byTopic.get(topic) ?? []) as Array<PublishedMessage<MessageShape<R[T]>>>)];
  }

  return {
    bus: recorded,
    published: (topic) => publishedWithKeys(topic).map(({ message }) => message),
    publishedWithKeys,
    clear: () => byTopic.clear(),
  };
}
