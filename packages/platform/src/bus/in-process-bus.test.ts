import { create, fromJson, toBinary, toJson } from '@bufbuild/protobuf';
import { StructSchema, ValueSchema, type Struct } from '@bufbuild/protobuf/wkt';
import { ChatReceivedSchema, KickUserSchema, type ChatReceived } from '@kickstand/proto';
import { eventually } from '../testing/eventually';
import type { DeadLetter } from './bus';
import { busContract, contractRetryPolicy, testTopics } from './bus.contract';
import { createInProcessBus, partitionFor } from './in-process-bus';
import { kickstandTopics, type TopicInit } from './topics';

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

  test('when six groups read a topic, then each receives the same decoded message: one object for all', async () => {
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
    // Assert: one object (one per group would make six equal but distinct ones)
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
    // Act + Assert: the schema check at publish is the encoder's (decoded-copy.ts)
    await expect(bus.publish('test.count', 'k', { value: 1.5 })).rejects.toThrow('invalid int32: 1.5');
    await bus.publish('test.count', 'k', { value: 2 });
    await settle();
    expect(values).toEqual([2]);
    await bus.stop();
  });

  /** A chat line as kick-link publishes it. */
  const chatLine = () => ({
    eventId: 'kick:1',
    occurredAt: { seconds: 1_764_150_000n, nanos: 5 },
    broadcasterUserId: '100042',
    ownerUserId: 'user-42',
    sender: {
      userId: '5000042',
      username: 'viewer_42',
      identity: { usernameColor: '#1475E1', badges: [{ text: 'Subscriber', type: 'subscriber', count: 3 }] },
    },
    content: 'gg [emote:39261:kkHuh]',
    emotes: [{ emoteId: '39261', positions: [{ s: 3, e: 22 }] }],
  });

  /** The chat line with its badge's count set to `count`, which the type would not allow. */
  const withBadgeCount = (count: unknown) => ({
    ...chatLine(),
    sender: { userId: '5000042', identity: { badges: [{ text: 'x', count: count as number }] } },
  });

  test.each<[string, TopicInit<'chat.received'>, string]>([
    [
      'an int32 of 1.5',
      withBadgeCount(1.5),
      'cannot encode field kickstand.events.v1.KickBadge.count to binary: invalid int32: 1.5',
    ],
    [
      'an int32 of NaN',
      withBadgeCount(Number.NaN),
      'cannot encode field kickstand.events.v1.KickBadge.count to binary: invalid int32: NaN',
    ],
    [
      'an int32 of 2^40',
      withBadgeCount(2 ** 40),
      'cannot encode field kickstand.events.v1.KickBadge.count to binary: invalid int32: 1099511627776',
    ],
    [
      'a string that is no number in an int32',
      withBadgeCount('three'),
      'cannot encode field kickstand.events.v1.KickBadge.count to binary: invalid int32: NaN',
    ],
    [
      'a bigint in an int32',
      withBadgeCount(3n),
      'cannot encode field kickstand.events.v1.KickBadge.count to binary: invalid int32: bigint',
    ],
    [
      'an int64 past 2^63',
      { ...chatLine(), broadcasterUserId: '9223372036854775808' },
      'invalid int64: 9223372036854775808',
    ],
  ])(
    'when a chat line has %s, then publish refuses it with the error Kafka gives and no group receives it',
    async (_, line, reason) => {
      // Arrange
      const bus = createInProcessBus({ topics: kickstandTopics, retry: contractRetryPolicy });
      const received: string[] = [];
      await bus.subscribe('chat.received', 'g', async (message) => {
        received.push(message.eventId);
      });
      // Act + Assert
      await expect(bus.publish('chat.received', 'k', line)).rejects.toThrow(reason);
      await bus.publish('chat.received', 'k', { ...chatLine(), eventId: 'fits' });
      await settle();
      expect(received).toEqual(['fits']);
      await bus.stop();
    },
  );

  test('when the publisher changes its object after publishing, then no group sees the change', async () => {
    // Arrange: an init object, and a message made with create holding a nested message
    const bus = createInProcessBus({ topics: kickstandTopics, retry: contractRetryPolicy });
    const received: ChatReceived[] = [];
    await bus.subscribe('chat.received', 'g', async (message) => {
      received.push(message);
    });
    const badges = [{ text: 'Subscriber', count: 3 }];
    const line = { ...chatLine(), sender: { userId: '5000042', username: 'viewer_42', identity: { badges } } };
    const sender = create(KickUserSchema, { userId: '7', username: 'before' });
    const made = create(ChatReceivedSchema, { ...chatLine(), eventId: 'made', sender });
    // Act
    await bus.publish('chat.received', 'k', line);
    await bus.publish('chat.received', 'k', made);
    line.content = 'changed';
    line.sender.username = 'changed';
    badges.push({ text: 'added', count: 1 });
    line.emotes?.splice(0);
    sender.username = 'after';
    made.content = 'changed';
    await settle();
    // Assert
    expect(received.map((message) => [message.content, message.sender?.username])).toEqual([
      ['gg [emote:39261:kkHuh]', 'viewer_42'],
      ['gg [emote:39261:kkHuh]', 'before'],
    ]);
    expect(received[0]?.sender?.identity?.badges).toHaveLength(1);
    expect(received[0]?.emotes).toHaveLength(1);
    expect(Object.isFrozen(received[1]?.sender)).toBe(true);
    expect(Object.isFrozen(sender)).toBe(false);
    await bus.stop();
  });

  test('when a published message is dead-lettered, then the dead letter holds the bytes Kafka would have carried', async () => {
    // Arrange
    const bus = createInProcessBus({
      topics: kickstandTopics,
      retry: { maxAttempts: 2, initialBackoffMs: 1, maxBackoffMs: 1 },
    });
    await bus.subscribe('chat.received', 'g', async () => {
      throw new Error('poison');
    });
    const deadLetters: DeadLetter[] = [];
    await bus.subscribeDeadLetters('g', async (deadLetter) => {
      deadLetters.push(deadLetter);
    });
    const line = chatLine();
    // Act
    await bus.publish('chat.received', '100042', line);
    await eventually(() => expect(deadLetters).toHaveLength(1));
    // Assert
    expect(deadLetters[0]).toEqual({
      group: 'g',
      originalTopic: 'chat.received',
      key: '100042',
      value: toBinary(ChatReceivedSchema, create(ChatReceivedSchema, line)),
      error: 'poison',
      attempts: 2,
    });
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
