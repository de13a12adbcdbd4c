import { randomUUID } from 'node:crypto';
import { create, fromJson, toBinary, toJson } from '@bufbuild/protobuf';
import { Int32ValueSchema, StructSchema } from '@bufbuild/protobuf/wkt';
import type { Bus, DeadLetter, DeliveryInfo, RetryPolicy, Subscription, TopicName } from './bus';

/**
 * The bus contract: ONE suite that every adapter must pass (in-process-bus.test.ts,
 * kafka-bus.int.test.ts). It uses well-known protobuf types so the bus is tested apart from the
 * product's own proto.
 *
 * Every test makes its own groups and keys from a fresh id and ignores messages with other keys,
 * so the suite holds whether a new group starts at the end of a topic (in-process, Kafka default)
 * or at its beginning (Kafka tests with fromBeginning, which also see earlier tests' messages).
 */

export const testTopics = {
  'test.greeting': StructSchema,
  'test.count': Int32ValueSchema,
};
export type TestTopics = typeof testTopics;

/** Short, so that the retry and dead-letter tests take milliseconds. */
export const contractRetryPolicy: RetryPolicy = { maxAttempts: 3, initialBackoffMs: 10, maxBackoffMs: 40 };

/** The adapters also publish raw bytes: the only way to put an undecodable message on a topic. */
export type ContractBus = Bus<TestTopics> & {
  publishRaw(topic: TopicName<TestTopics>, key: string, value: Uint8Array): Promise<void>;
};

export interface ContractOptions {
  /** How long to wait for something that should happen. */
  deliveryTimeoutMs?: number;
  /** How long to wait to be sure something does NOT happen (no extra delivery). */
  quietMs?: number;
}

export function busContract(name: string, makeBus: () => Promise<ContractBus>, options: ContractOptions = {}): void {
  const deliveryTimeoutMs = options.deliveryTimeoutMs ?? 5000;
  const quietMs = options.quietMs ?? 100;
  const eventually = (assertion: () => void): Promise<void> => waitFor(assertion, deliveryTimeoutMs);

  describe(`${name}: the bus contract`, () => {
    let bus: ContractBus;
    const subscriptions: Subscription[] = [];

    /** Stops the subscription after the test, whatever happens. */
    async function track(subscribing: Promise<Subscription>): Promise<Subscription> {
      const subscription = await subscribing;
      subscriptions.push(subscription);
      return subscription;
    }

    beforeAll(async () => {
      bus = await makeBus();
    });

    afterEach(async () => {
      await Promise.all(subscriptions.splice(0).map((subscription) => subscription.stop()));
    });

    afterAll(async () => {
      await bus?.stop();
    });

    test('when a message is published, then a subscriber receives it decoded with all its fields', async () => {
      // Arrange
      const run = newRun();
      const sent = fromJson(StructSchema, {
        text: 'hello',
        count: 3,
        isLoud: true,
        nothing: null,
        nested: { list: [1, 'two', false], deeper: { ok: 'yes' } },
      });
      const received: Array<{ json: unknown; info: DeliveryInfo }> = [];
      await track(
        bus.subscribe('test.greeting', run.group('a'), async (message, info) => {
          if (run.isMine(info)) received.push({ json: toJson(StructSchema, message), info });
        }),
      );
      // Act
      const beforeMs = Date.now();
      await bus.publish('test.greeting', run.key('1'), sent);
      // Assert
      await eventually(() => expect(received).toHaveLength(1));
      expect(received[0]).toEqual({
        json: toJson(StructSchema, sent),
        info: { topic: 'test.greeting', key: run.key('1'), attempt: 1, publishedAtMs: expect.any(Number) as unknown },
      });
      // when it was published, for the bus-wait metric (Kafka's timestamps are whole milliseconds)
      expect(received[0]?.info.publishedAtMs).toBeGreaterThanOrEqual(Math.floor(beforeMs));
      expect(received[0]?.info.publishedAtMs).toBeLessThanOrEqual(Date.now() + 1);
    });

    test('when two groups subscribe to a topic, then each group receives every message', async () => {
      // Arrange
      const run = newRun();
      const byGroup = { a: [] as number[], b: [] as number[] };
      for (const group of ['a', 'b'] as const) {
        await track(
          bus.subscribe('test.count', run.group(group), async (message, info) => {
            if (run.isMine(info)) byGroup[group].push(message.value);
          }),
        );
      }
      // Act
      for (let i = 0; i < 10; i++) await bus.publish('test.count', run.key(String(i % 4)), { value: i });
      // Assert
      const all = Array.from({ length: 10 }, (_, i) => i);
      await eventually(() => {
        expect(sorted(byGroup.a)).toEqual(all);
        expect(sorted(byGroup.b)).toEqual(all);
      });
      await delay(quietMs);
      expect(sorted(byGroup.a)).toEqual(all);
      expect(sorted(byGroup.b)).toEqual(all);
    });

    test('when two subscribers share a group, then each message is handled by exactly one of them', async () => {
      // Arrange
      const run = newRun();
      const bySubscriber = { first: [] as number[], second: [] as number[] };
      for (const subscriber of ['first', 'second'] as const) {
        await track(
          bus.subscribe('test.count', run.group('shared'), async (message, info) => {
            if (run.isMine(info)) bySubscriber[subscriber].push(message.value);
          }),
        );
      }
      // Act: 40 messages over 24 keys, so both members own some of them
      for (let i = 0; i < 40; i++) await bus.publish('test.count', run.key(String(i % 24)), { value: i });
      // Assert
      const all = Array.from({ length: 40 }, (_, i) => i);
      await eventually(() => expect(sorted([...bySubscriber.first, ...bySubscriber.second])).toEqual(all));
      await delay(quietMs);
      expect(sorted([...bySubscriber.first, ...bySubscriber.second])).toEqual(all);
      expect(bySubscriber.first.length).toBeGreaterThan(0);
      expect(bySubscriber.second.length).toBeGreaterThan(0);
    });

    test('when one group subscribes to two topics, then it receives the messages of both', async () => {
      // Arrange
      const run = newRun();
      const group = run.group('both');
      const greetings: string[] = [];
      const counts: number[] = [];
      await track(
        bus.subscribe('test.greeting', group, async (message, info) => {
          if (run.isMine(info)) greetings.push(info.key);
        }),
      );
      await track(
        bus.subscribe('test.count', group, async (message, info) => {
          if (run.isMine(info)) counts.push(message.value);
        }),
      );
      // Act
      for (let i = 0; i < 6; i++) {
        await bus.publish('test.greeting', run.key(`g${i}`), fromJson(StructSchema, { i }));
        await bus.publish('test.count', run.key(`c${i}`), { value: i });
      }
      // Assert
      await eventually(() => {
        expect(greetings).toHaveLength(6);
        expect(sorted(counts)).toEqual([0, 1, 2, 3, 4, 5]);
      });
    });

    test('when every member of a group has left, then what is published meanwhile waits for its next member', async () => {
      // Arrange: the group exists (it handled a message), then its only member leaves
      const run = newRun();
      const group = run.group('comeback');
      const seen: number[] = [];
      const first = await track(
        bus.subscribe('test.count', group, async (message, info) => {
          if (run.isMine(info)) seen.push(message.value);
        }),
      );
      await bus.publish('test.count', run.key('0'), { value: 0 });
      await eventually(() => expect(seen).toEqual([0]));
      await first.stop();
      // Act
      for (let i = 1; i <= 6; i++) await bus.publish('test.count', run.key(String(i)), { value: i });
      const later: number[] = [];
      await track(
        bus.subscribe('test.count', group, async (message, info) => {
          if (run.isMine(info)) later.push(message.value);
        }),
      );
      // Assert
      await eventually(() => expect(sorted(later)).toEqual([1, 2, 3, 4, 5, 6]));
      expect(seen).toEqual([0]);
    });

    test('when 50 messages over 5 keys meet handlers with random delays, then each key is handled in publish order, one at a time', async () => {
      // Arrange
      const run = newRun();
      const keys = Array.from({ length: 5 }, (_, i) => run.key(`k${i}`));
      const seen = new Map<string, number[]>(keys.map((key) => [key, []]));
      const inFlight = new Map<string, number>();
      let mostInFlightForOneKey = 0;
      await track(
        bus.subscribe('test.count', run.group('ordered'), async (message, info) => {
          if (!run.isMine(info)) return;
          const now = (inFlight.get(info.key) ?? 0) + 1;
          inFlight.set(info.key, now);
          mostInFlightForOneKey = Math.max(mostInFlightForOneKey, now);
          await delay(Math.floor(Math.random() * 5));
          seen.get(info.key)?.push(message.value);
          inFlight.set(info.key, now - 1);
        }),
      );
      // Act
      const published = new Map<string, number[]>(keys.map((key) => [key, []]));
      for (let i = 0; i < 50; i++) {
        const key = keys[i % keys.length] ?? '';
        await bus.publish('test.count', key, { value: i });
        published.get(key)?.push(i);
      }
      // Assert
      await eventually(() => expect([...seen.values()].flat()).toHaveLength(50));
      expect(seen).toEqual(published);
      expect(mostInFlightForOneKey).toBe(1);
    });

    test('when a handler fails twice and then succeeds, then it sees attempts 1, 2, 3 and the message is processed once', async () => {
      // Arrange
      const run = newRun();
      const attempts: number[] = [];
      const processed: number[] = [];
      await track(
        bus.subscribe('test.count', run.group('flaky'), async (message, info) => {
          if (!run.isMine(info)) return;
          attempts.push(info.attempt);
          if (info.attempt < 3) throw new Error(`flaky ${info.attempt}`);
          processed.push(message.value);
        }),
      );
      // Act
      await bus.publish('test.count', run.key('1'), { value: 7 });
      // Assert
      await eventually(() => expect(processed).toEqual([7]));
      await delay(quietMs);
      expect(attempts).toEqual([1, 2, 3]);
      expect(processed).toEqual([7]);
    });

    test('when a handler always fails, then the message is dead-lettered after maxAttempts and the next message is still processed', async () => {
      // Arrange
      const run = newRun();
      const group = run.group('poisoned');
      const key = run.key('1');
      const attempts: number[] = [];
      const processed: number[] = [];
      await track(
        bus.subscribe('test.count', group, async (message, info) => {
          if (!run.isMine(info)) return;
          if (message.value === 1) {
            attempts.push(info.attempt);
            throw new Error('poison 1');
          }
          processed.push(message.value);
        }),
      );
      // Act: the same key, so the second message waits behind the first
      await bus.publish('test.count', key, { value: 1 });
      await bus.publish('test.count', key, { value: 2 });
      // Assert
      await eventually(() => expect(processed).toEqual([2]));
      expect(attempts).toEqual([1, 2, 3]);
      const deadLetters: DeadLetter[] = [];
      await track(
        bus.subscribeDeadLetters(group, async (deadLetter) => {
          deadLetters.push(deadLetter);
        }),
      );
      await eventually(() => expect(deadLetters).toHaveLength(1));
      expect(deadLetters[0]).toEqual({
        group,
        originalTopic: 'test.count',
        key,
        value: toBinary(Int32ValueSchema, create(Int32ValueSchema, { value: 1 })),
        error: 'poison 1',
        attempts: contractRetryPolicy.maxAttempts,
      });
    });

    test('when a message cannot be decoded, then it goes straight to the dead-letter topic and the next message is processed', async () => {
      // Arrange
      const run = newRun();
      const group = run.group('undecodable');
      const key = run.key('1');
      const processed: number[] = [];
      await track(
        bus.subscribe('test.count', group, async (message, info) => {
          if (run.isMine(info)) processed.push(message.value);
        }),
      );
      const deadLetters: DeadLetter[] = [];
      await track(
        bus.subscribeDeadLetters(group, async (deadLetter) => {
          deadLetters.push(deadLetter);
        }),
      );
      // field 1, length-delimited, says 5 bytes follow but only 1 does
      const garbage = new Uint8Array([0x0a, 0x05, 0x61]);
      // Act
      await bus.publishRaw('test.count', key, garbage);
      await bus.publish('test.count', key, { value: 2 });
      // Assert
      await eventually(() => {
        expect(processed).toEqual([2]);
        expect(deadLetters).toHaveLength(1);
      });
      expect(deadLetters[0]).toEqual({
        group,
        originalTopic: 'test.count',
        key,
        value: garbage,
        error: expect.stringContaining('cannot decode google.protobuf.Int32Value'),
        attempts: 0,
      });
    });

    test('when a subscription is stopped while its handler runs, then stop waits for it and no handler runs afterwards', async () => {
      // Arrange
      const run = newRun();
      const key = run.key('1');
      const release = deferred();
      const started = deferred();
      const calls: number[] = [];
      let callsAfterStop = 0;
      let isStopped = false;
      const subscription = await track(
        bus.subscribe('test.count', run.group('stopping'), async (message, info) => {
          if (isStopped) callsAfterStop++;
          if (!run.isMine(info)) return;
          calls.push(message.value);
          started.resolve();
          await release.promise;
        }),
      );
      for (let i = 1; i <= 3; i++) await bus.publish('test.count', key, { value: i });
      await started.promise;
      // Act
      let hasStopped = false;
      const stopping = subscription.stop().then(() => {
        hasStopped = true;
      });
      await delay(quietMs);
      const hadStoppedBeforeRelease = hasStopped;
      release.resolve();
      await stopping;
      isStopped = true;
      await bus.publish('test.count', key, { value: 4 });
      await delay(quietMs);
      // Assert
      expect(hadStoppedBeforeRelease).toBe(false);
      expect(calls).toEqual([1]);
      expect(callsAfterStop).toBe(0);
    });

    test('when the bus is stopped while a handler runs, then stop waits for it and no handler runs afterwards', async () => {
      // Arrange: a bus of its own, since this one gets stopped
      const ownBus = await makeBus();
      const run = newRun();
      const key = run.key('1');
      const release = deferred();
      const started = deferred();
      const calls: number[] = [];
      let callsAfterStop = 0;
      let isStopped = false;
      await ownBus.subscribe('test.count', run.group('bus-stopping'), async (message, info) => {
        if (isStopped) callsAfterStop++;
        if (!run.isMine(info)) return;
        calls.push(message.value);
        started.resolve();
        await release.promise;
      });
      for (let i = 1; i <= 3; i++) await ownBus.publish('test.count', key, { value: i });
      await started.promise;
      // Act
      let hasStopped = false;
      const stopping = ownBus.stop().then(() => {
        hasStopped = true;
      });
      await delay(quietMs);
      const hadStoppedBeforeRelease = hasStopped;
      release.resolve();
      await stopping;
      isStopped = true;
      await delay(quietMs);
      // Assert
      expect(hadStoppedBeforeRelease).toBe(false);
      expect(calls).toEqual([1]);
      expect(callsAfterStop).toBe(0);
      await expect(ownBus.publish('test.count', key, { value: 4 })).rejects.toThrow();
    });

    test('when the bus is reachable, then ping resolves', async () => {
      await expect(bus.ping()).resolves.toBeUndefined();
    });
  });
}

/** Ids for one test: its groups and keys, and a filter for its own messages. */
function newRun() {
  const id = randomUUID().slice(0, 8);
  return {
    group: (name: string) => `contract-${id}-${name}`,
    key: (name: string) => `${id}-${name}`,
    isMine: (info: DeliveryInfo) => info.key.startsWith(`${id}-`),
  };
}

function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function waitFor(assertion: () => void, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await delay(10);
    }
  }
}
