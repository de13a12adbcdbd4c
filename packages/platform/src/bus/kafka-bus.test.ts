import { KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { consumerTuning, topicPartitions } from '../lifecycle/connect-platform';
import { loadConfig, platformConfigSchema } from '../config';
import { hasLostProducerState, isNotReadyYet } from './kafka-bus';

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
