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

  test('when a topic is not in the registry, then publish and subscribe refuse it', async () => {
    const bus = createInProcessBus({ topics: testTopics });
    // @ts-expect-error: the topic is not in the registry
    await expect(bus.publish('test.unknown', 'k', {})).rejects.toThrow('Unknown topic "test.unknown"');
    // @ts-expect-error: the topic is not in the registry
    await expect(bus.subscribe('test.unknown', 'g', async () => undefined)).rejects.toThrow('Unknown topic');
    await bus.stop();
  });
});
