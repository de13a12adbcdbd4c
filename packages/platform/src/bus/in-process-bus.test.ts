import { create, fromJson, toJson } from '@bufbuild/protobuf';
import { StructSchema, ValueSchema, type Struct } from '@bufbuild/protobuf/wkt';
import { eventually } from '../testing/eventually';
import type { DeadLetter } from './bus';
import { busContract, contractRetryPolicy, testTopics } from './bus.contract';
import { createInProcessBus, partitionFor } from './in-process-bus';

busContract('in-process bus', async () => createInProcessBus({ topics: testTopics, retry: contractRetryPolicy }));

describe('in-process bus', () => {
  /** Enough keys to land on every one of 4 partitions. */
  const keysOnEveryPartition = (partitions: number): string[] => {
    const keys: string[] = [];
    const covered = new Set<number>();
    for (let i = 0; covered.size < partitions; i++) {
      const key = `key-${i}`;
      if (!covered.has(partitionFor(key, partitions))) keys.push(key);
      covered.add(partitionFor(key, partitions));
    }
    return keys;
  };

  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  test('when members join and leave a group, then the partitions are spread over the members present', async () => {
    // Arrange
    const bus = createInProcessBus({ topics: testTopics, retry: contractRetryPolicy, partitions: 4 });
    const keys = keysOnEveryPartition(4);
    const handledBy = new Map<string, string[]>();
    const member = (name: string) =>
      bus.subscribe('test.count', 'g', async (_message, info) => {
        handledBy.set(name, [...(handledBy.get(name) ?? []), info.key]);
      });
    const publishAll = async () => {
      handledBy.clear();
      for (const key of keys) await bus.publish('test.count', key, { value: 1 });
      await settle();
    };
    // Act + Assert: one member owns everything
    const a = await member('a');
    await publishAll();
    expect(handledBy.get('a')).toHaveLength(4);
    // a second member takes half of the partitions
    const b = await member('b');
    await publishAll();
    expect(handledBy.get('a')).toHaveLength(2);
    expect(handledBy.get('b')).toHaveLength(2);
    // when a leaves, b owns everything
    await a.stop();
    await publishAll();
    expect(handledBy.get('a')).toBeUndefined();
    expect(handledBy.get('b')).toHaveLength(4);
    await b.stop();
    await bus.stop();
  });

  test('when a group subscribes for the first time, then messages published before are not replayed to it', async () => {
    // Arrange
    const bus = createInProcessBus({ topics: testTopics, retry: contractRetryPolicy });
    await bus.publish('test.count', 'k', { value: 1 });
    const seen: number[] = [];
    // Act
    await bus.subscribe('test.count', 'new-group', async (message) => {
      seen.push(message.value);
    });
    await bus.publish('test.count', 'k', { value: 2 });
    await settle();
    // Assert
    expect(seen).toEqual([2]);
    await bus.stop();
  });

  test('when a member leaves during the retries of a message, then the next owner gets it from attempt 1', async () => {
    // Arrange
    const bus = createInProcessBus({
      topics: testTopics,
      retry: { maxAttempts: 5, initialBackoffMs: 1000, maxBackoffMs: 1000 },
    });
    const attemptsOfA: number[] = [];
    const a = await bus.subscribe('test.count', 'g', async (_message, info) => {
      attemptsOfA.push(info.attempt);
      throw new Error('a fails');
    });
    await bus.publish('test.count', 'k', { value: 1 });
    await settle(); // a failed once and waits 1 s before its second attempt
    // Act
    const attemptsOfB: number[] = [];
    await bus.subscribe('test.count', 'g', async (_message, info) => {
      attemptsOfB.push(info.attempt);
    });
    await a.stop(); // ends a's wait at once: b is the only member now
    await settle();
    // Assert
    expect(attemptsOfA).toEqual([1]);
    expect(attemptsOfB).toEqual([1]);
    await bus.stop();
  });

  test('when handlers of different keys are slow, then they run in parallel', async () => {
    // Arrange
    const bus = createInProcessBus({ topics: testTopics, retry: contractRetryPolicy, partitions: 4 });
    const keys = keysOnEveryPartition(4);
    let inFlight = 0;
    let mostInFlight = 0;
    await bus.subscribe('test.count', 'g', async () => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await settle();
      inFlight--;
    });
    // Act
    for (const key of keys) await bus.publish('test.count', key, { value: 1 });
    await settle();
    await settle();
    // Assert
    expect(mostInFlight).toBe(4);
    await bus.stop();
  });

  test('when six groups read a topic, then each receives the same decoded message: one decode for all', async () => {
    // Arrange
    const bus = createInProcessBus({ topics: testTopics, retry: contractRetryPolicy });
    const received = new Map<string, unknown>();
    const groups = ['g1', 'g2', 'g3', 'g4', 'g5', 'g6'];
    for (const group of groups) {
      await bus.subscribe('test.greeting', group, async (message) => {
        received.set(group, message);
      });
    }
    // Act
    await bus.publish('test.greeting', 'k', fromJson(StructSchema, { text: 'hello', nested: { list: [1, 'two'] } }));
    await settle();
    // Assert: one object (a decode per group would make six equal but distinct ones)
    const [first, ...others] = groups.map((group) => received.get(group));
    expect(toJson(StructSchema, first as Struct)).toEqual({ text: 'hello', nested: { list: [1, 'two'] } });
    expect(others).toHaveLength(5);
    for (const other of others) expect(other).toBe(first);
    await bus.stop();
  });

  test('when a handler writes to the shared message, then the write throws and the other groups see it unchanged', async () => {
    // Arrange
    const bus = createInProcessBus({
      topics: testTopics,
      retry: { maxAttempts: 1, initialBackoffMs: 1, maxBackoffMs: 1 },
    });
    const errors: string[] = [];
    await bus.subscribe('test.greeting', 'writer', async (message) => {
      try {
        const text = message.fields['text'];
        if (text) text.kind = { case: 'stringValue', value: 'changed' };
      } catch (error) {
        errors.push(String(error));
      }
      try {
        message.fields['added'] = create(ValueSchema, { kind: { case: 'boolValue', value: true } });
      } catch (error) {
        errors.push(String(error));
      }
    });
    const seen: unknown[] = [];
    await bus.subscribe('test.greeting', 'reader', async (message) => {
      seen.push(toJson(StructSchema, message));
    });
    // Act
    await bus.publish('test.greeting', 'k', fromJson(StructSchema, { text: 'hello' }));
    await settle();
    // Assert
    expect(errors).toEqual([
      "TypeError: Cannot assign to read only property 'kind' of object '#<Object>'",
      'TypeError: Cannot add property added, object is not extensible',
    ]);
    expect(seen).toEqual([{ text: 'hello' }]);
    await bus.stop();
  });

  test('when a group retries a message, then every attempt gets the same message and another group keeps its order', async () => {
    // Arrange
    const bus = createInProcessBus({ topics: testTopics, retry: contractRetryPolicy });
    const attempts: Array<{ value: number; attempt: number }> = [];
    const attempted: unknown[] = [];
    await bus.subscribe('test.count', 'flaky', async (message, info) => {
      attempts.push({ value: message.value, attempt: info.attempt });
      attempted.push(message);
      if (message.value === 1 && info.attempt < 3) throw new Error('not yet');
    });
    const steady: number[] = [];
    await bus.subscribe('test.count', 'steady', async (message) => {
      steady.push(message.value);
    });
    // Act
    for (const value of [1, 2, 3]) await bus.publish('test.count', 'k', { value });
    await eventually(() => expect(attempts).toHaveLength(5));
    // Assert
    expect(attempts).toEqual([
      { value: 1, attempt: 1 },
      { value: 1, attempt: 2 },
      { value: 1, attempt: 3 },
      { value: 2, attempt: 1 },
      { value: 3, attempt: 1 },
    ]);
    expect(attempted[1]).toBe(attempted[0]);
    expect(attempted[2]).toBe(attempted[0]);
    expect(steady).toEqual([1, 2, 3]);
    await bus.stop();
  });

  test('when bytes cannot be decoded, then every group dead-letters them with the decoding error', async () => {
    // Arrange
    const bus = createInProcessBus({ topics: testTopics, retry: contractRetryPolicy });
    const handled: string[] = [];
    const deadLetters: DeadLetter[] = [];
    for (const group of ['a', 'b']) {
      await bus.subscribe('test.count', group, async (message) => {
        handled.push(`${group}:${message.value}`);
      });
      await bus.subscribeDeadLetters(group, async (deadLetter) => {
        deadLetters.push(deadLetter);
      });
    }
    const garbage = new Uint8Array([0x0a, 0x05, 0x61]);
    // Act
    await bus.publishRaw('test.count', 'k', garbage);
    await bus.publish('test.count', 'k', { value: 2 });
    await settle();
    // Assert
    expect(handled.sort()).toEqual(['a:2', 'b:2']);
    expect(deadLetters.map(({ group, value, error, attempts }) => ({ group, value, error, attempts }))).toEqual(
      ['a', 'b'].map((group) => ({
        group,
        value: garbage,
        error: 'cannot decode google.protobuf.Int32Value: premature EOF',
        attempts: 0,
      })),
    );
    await bus.stop();
  });

  test('when a message does not fit its schema, then publish refuses it as Kafka would and no group receives it', async () => {
    // Arrange
    const bus = createInProcessBus({ topics: testTopics, retry: contractRetryPolicy });
    const values: number[] = [];
    await bus.subscribe('test.count', 'g', async (message) => {
      values.push(message.value);
    });
    // Act + Assert: the encoding at publish is the schema check
    await expect(bus.publish('test.count', 'k', { value: 1.5 })).rejects.toThrow('invalid int32: 1.5');
    await bus.publish('test.count', 'k', { value: 2 });
    await settle();
    expect(values).toEqual([2]);
    await bus.stop();
  });

  test('when freezeMessages is off, then a handler may write to its message', async () => {
    // Arrange
    const bus = createInProcessBus({ topics: testTopics, retry: contractRetryPolicy, freezeMessages: false });
    const values: number[] = [];
    await bus.subscribe('test.count', 'g', async (message) => {
      message.value += 1;
      values.push(message.value);
    });
    // Act
    await bus.publish('test.count', 'k', { value: 1 });
    await settle();
    // Assert
    expect(values).toEqual([2]);
    await bus.stop();
  });

  test('when a topic is not in the registry, then publish and subscribe refuse it', async () => {
    const bus = createInProcessBus({ topics: testTopics });
    // @ts-expect-error: the topic is not in the registry
    await expect(bus.publish('test.unknown', 'k', {})).rejects.toThrow('Unknown topic "test.unknown"');
    // @ts-expect-error: the topic is not in the registry
    await expect(bus.subscribe('test.unknown', 'g', async () => undefined)).rejects.toThrow('Unknown topic');
    await bus.stop();
  });
});
