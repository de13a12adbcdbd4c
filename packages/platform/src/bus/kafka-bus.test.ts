import { create, toBinary } from '@bufbuild/protobuf';
import { Int32ValueSchema } from '@bufbuild/protobuf/wkt';
import {
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
  type EachBatchPayload,
} from 'kafkajs';
import { createSilentLogger } from '../log/logger';
import { batchWaitOf, consumerTuning, topicPartitions } from '../lifecycle/connect-platform';
import { loadConfig, platformConfigSchema } from '../config';
import { createWorker, hasLostProducerState, isNotReadyYet } from './kafka-bus';

/** The Kafka adapter's pieces that need no broker; the adapter itself: kafka-bus.int.test.ts. */

const protocolError = (type: string, code: number, retriable: boolean) =>
  Object.assign(new KafkaJSProtocolError(type), { type, code, retriable });

describe('isNotReadyYet', () => {
  test.each([
    ['UNKNOWN_TOPIC_OR_PARTITION', 3],
    ['LEADER_NOT_AVAILABLE', 5],
    ['NOT_LEADER_FOR_PARTITION', 6],
  ])('when Kafka answers %s (a topic a moment old), then it is worth trying again', (type, code) => {
    expect(isNotReadyYet(protocolError(type, code, true))).toBe(true);
  });

  test('when kafkajs gave up after its own retries, then the error it wraps decides', () => {
    const wrapped = new KafkaJSNumberOfRetriesExceeded(protocolError('LEADER_NOT_AVAILABLE', 5, true), {
      retryCount: 5,
      retryTime: 1000,
    });
    expect(isNotReadyYet(wrapped)).toBe(true);
  });

  test('when the error is a real one, then it is not tried again', () => {
    expect(isNotReadyYet(protocolError('INVALID_REPLICATION_FACTOR', 38, false))).toBe(false);
    expect(isNotReadyYet(new KafkaJSNonRetriableError('bad topic name'))).toBe(false);
    expect(isNotReadyYet(new TypeError('oops'))).toBe(false);
    expect(isNotReadyYet(undefined)).toBe(false);
  });
});

describe('consumerTuning', () => {
  test('when no timing is set, then the project defaults reach the consumers (session 10 s, heartbeat 1 s, rebalance 10 s)', () => {
    expect(consumerTuning(loadConfig(platformConfigSchema, {}))).toEqual({
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      rebalanceTimeout: 10_000,
    });
  });

  test('when timings are set, then they reach the consumers', () => {
    const config = loadConfig(platformConfigSchema, {
      KAFKA_SESSION_TIMEOUT_MS: '10000',
      KAFKA_HEARTBEAT_INTERVAL_MS: '1000',
      KAFKA_REBALANCE_TIMEOUT_MS: '20000',
    });
    expect(consumerTuning(config)).toEqual({ sessionTimeout: 10000, heartbeatInterval: 1000, rebalanceTimeout: 20000 });
  });
});

describe('topicPartitions', () => {
  test('when KAFKA_PARTITIONS is unset, then the chat topics get 24 partitions and the others 3', () => {
    const partitions = topicPartitions(loadConfig(platformConfigSchema, {}));
    expect([partitions('chat.received'), partitions('chat.send'), partitions('bot.status')]).toEqual([24, 24, 3]);
  });

  test('when KAFKA_PARTITIONS is set, then the chat topics get that many', () => {
    const partitions = topicPartitions(loadConfig(platformConfigSchema, { KAFKA_PARTITIONS: '36' }));
    expect([partitions('chat.received'), partitions('user.changed')]).toEqual([36, 3]);
  });
});

describe('batchWaitOf', () => {
  test('when a reply waits for the reader of a chat-rate topic, then it lets messages gather 20 ms', () => {
    expect(batchWaitOf('chat.received', 'bot-runner')).toBe(20);
    expect(batchWaitOf('chat.received', 'games')).toBe(20);
    expect(batchWaitOf('chat.send', 'kick-link')).toBe(20);
  });

  test('when the reader is a dashboard or analytics, then it lets them gather 100 ms', () => {
    expect(batchWaitOf('chat.received', 'realtime.instance.r1')).toBe(100);
    expect(batchWaitOf('chat.sent', 'realtime.instance.r1')).toBe(100);
    expect(batchWaitOf('command.executed', 'auth')).toBe(100);
  });

  test('when the topic is not chat-rate, then nobody waits', () => {
    expect(batchWaitOf('bot.status', 'auth')).toBe(0);
    expect(batchWaitOf('user.changed', 'realtime.instance.r1')).toBe(0);
  });
});

describe('hasLostProducerState', () => {
  test.each([
    ['OUT_OF_ORDER_SEQUENCE_NUMBER', 45],
    ['UNKNOWN_PRODUCER_ID', 59],
    ['INVALID_PRODUCER_EPOCH', 47],
  ])('when Kafka answers %s, then the producer is replaced', (type, code) => {
    expect(hasLostProducerState(protocolError(type, code, false))).toBe(true);
  });

  test('when kafkajs gave up after its own retries on such an answer, then the producer is replaced', () => {
    const wrapped = new KafkaJSNumberOfRetriesExceeded(protocolError('OUT_OF_ORDER_SEQUENCE_NUMBER', 45, false), {
      retryCount: 5,
      retryTime: 1000,
    });
    expect(hasLostProducerState(wrapped)).toBe(true);
  });

  test('when Kafka is only unreachable or busy, then the producer is kept', () => {
    expect(hasLostProducerState(protocolError('LEADER_NOT_AVAILABLE', 5, true))).toBe(false);
    expect(hasLostProducerState(new KafkaJSNonRetriableError('Connection error: connect ECONNREFUSED'))).toBe(false);
  });
});

describe('the worker of a subscription (offset commits)', () => {
  type Offsets = ReturnType<EachBatchPayload['uncommittedOffsets']>;

  /** kafkajs's side of one fetch: a batch per partition, a group-wide table of resolved offsets. */
  function fakeFetch(partitions: number[], options: { heartbeat?: () => Promise<void> } = {}) {
    const resolved = new Map<number, string>();
    const commits: Array<Array<{ partition: number; offset: string }>> = [];
    const uncommittedOffsets = (): Offsets => ({
      topics: [
        { topic: 'test.count', partitions: [...resolved].map(([partition, offset]) => ({ partition, offset })) },
      ],
    });
    const commitOffsetsIfNecessary = async (offsets?: Offsets): Promise<void> => {
      commits.push((offsets?.topics[0]?.partitions ?? []).map(({ partition, offset }) => ({ partition, offset })));
      resolved.clear();
    };
    const payloads = partitions.map(
      (partition) =>
        ({
          batch: {
            topic: 'test.count',
            partition,
            messages: ['10', '11'].map((offset) => ({
              offset,
              key: Buffer.from(`k${partition}`),
              value: Buffer.from(toBinary(Int32ValueSchema, create(Int32ValueSchema, { value: partition }))),
            })),
          },
          resolveOffset: (offset: string) => resolved.set(partition, offset),
          heartbeat: options.heartbeat ?? (async () => undefined),
          isRunning: () => true,
          isStale: () => false,
          commitOffsetsIfNecessary,
          uncommittedOffsets,
        }) as unknown as EachBatchPayload,
    );
    return { payloads, commits };
  }

  function workerOf(commits: boolean, handled: number[] = []) {
    return createWorker({
      topic: 'test.count',
      group: 'g',
      schema: Int32ValueSchema,
      handler: async (message) => {
        handled.push(message.value);
      },
      retry: { maxAttempts: 1, initialBackoffMs: 1, maxBackoffMs: 1 },
      log: createSilentLogger(),
      errorMessage: String,
      skipBefore: undefined,
      batchWaitMs: 0,
      commits,
      generation: () => 1,
      deadLetter: async () => undefined,
    });
  }

  test('when the batches of one fetch finish together, then one commit carries the offsets of them all', async () => {
    const handled: number[] = [];
    const worker = workerOf(true, handled);
    const { payloads, commits } = fakeFetch([0, 1, 2, 3]);

    await Promise.all(payloads.map((payload) => worker.eachBatch(payload)));

    expect(handled.sort()).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    expect(commits).toEqual([
      [
        { partition: 0, offset: '11' },
        { partition: 1, offset: '11' },
        { partition: 2, offset: '11' },
        { partition: 3, offset: '11' },
      ],
    ]);
  });

  test('when a group of one instance handles a fetch, then nothing is committed', async () => {
    const worker = workerOf(false);
    const { payloads, commits } = fakeFetch([0, 1]);

    await Promise.all(payloads.map((payload) => worker.eachBatch(payload)));

    expect(commits).toEqual([]);
  });

  test('when a rebalance cuts a batch short, then what it handled is committed and the rebalance goes on to kafkajs', async () => {
    const rebalancing = new Error('The group is rebalancing');
    const worker = workerOf(true);
    const { payloads, commits } = fakeFetch([5], {
      heartbeat: async () => {
        throw rebalancing;
      },
    });

    await expect(worker.eachBatch(payloads[0] as EachBatchPayload)).rejects.toBe(rebalancing);

    expect(commits).toEqual([[{ partition: 5, offset: '10' }]]);
  });
});
