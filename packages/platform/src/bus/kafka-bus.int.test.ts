import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { pino } from 'pino';
import type { StartedTestContainer } from 'testcontainers';
import { instanceGroup, kafkaGroupId } from './bus';
import { busContract, contractRetryPolicy, testTopics, type ContractBus } from './bus.contract';
import { createKafkaBus, type KafkaConsumerTuning } from './kafka-bus';
import { freePort } from '../http/free-port';

/**
 * Runs the bus contract against a real Kafka broker:
 * - KAFKA_BROKERS when set (e.g. `eval "$(bash tools/kafka/up.sh)"`), with a fresh topic prefix
 *   per run so runs sharing a broker never see each other's messages;
 * - else apache/kafka in Docker through testcontainers, when a Docker engine answers;
 * - else the suite is skipped with one line (or fails when CI=true and REQUIRE_INTEGRATION=1).
 */

const kafkaImage = 'apache/kafka:3.9.1';
const skipLine = 'kafka-bus contract skipped: set KAFKA_BROKERS or start a Docker engine';

/** Short timeouts so joins, leaves and rebalances take well under a second on a local broker. */
const testConsumer: KafkaConsumerTuning = {
  sessionTimeout: 6000,
  heartbeatInterval: 500,
  rebalanceTimeout: 3000,
  maxWaitTimeInMs: 200,
};

/** Asks testcontainers, in a child process, whether a container runtime answers (sync, for describe). */
function isDockerReachable(): boolean {
  const probe = `require('testcontainers').getContainerRuntimeClient().then(() => process.exit(0), () => process.exit(1))`;
  const result = spawnSync(process.execPath, ['-e', probe], { cwd: __dirname, timeout: 10_000, stdio: 'ignore' });
  return result.status === 0;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await delay(20);
}

/** A single-node KRaft broker advertised on a host port chosen up front. */
async function startKafkaContainer(): Promise<{ container: StartedTestContainer; brokers: string[] }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const port = await freePort();
  const container = await new GenericContainer(kafkaImage)
    .withExposedPorts({ container: 9092, host: port })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://localhost:${port}`,
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
    })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .withStartupTimeout(90_000)
    .start();
  return { container, brokers: [`localhost:${port}`] };
}

const brokersFromEnv = process.env.KAFKA_BROKERS?.split(',')
  .map((broker) => broker.trim())
  .filter(Boolean);
const source: 'env' | 'docker' | 'none' = brokersFromEnv?.length ? 'env' : isDockerReachable() ? 'docker' : 'none';
const isRequired = process.env.CI === 'true' && process.env.REQUIRE_INTEGRATION === '1';

if (source === 'none') {
  if (isRequired) {
    test('kafka is available (CI=true and REQUIRE_INTEGRATION=1)', () => {
      throw new Error('kafka-bus contract cannot run: set KAFKA_BROKERS or start a Docker engine');
    });
  } else {
    process.stdout.write(`${skipLine}\n`);
    test.skip(skipLine, () => undefined);
  }
} else {
  describe(`kafka bus (${source === 'env' ? 'KAFKA_BROKERS' : kafkaImage})`, () => {
    // Every topic and group of this run lives under its own prefix on the broker.
    const topicPrefix = `kickstand-test-${randomUUID().slice(0, 8)}.`;
    let brokers: string[] = brokersFromEnv ?? [];
    let container: StartedTestContainer | undefined;

    beforeAll(async () => {
      if (source === 'docker') ({ container, brokers } = await startKafkaContainer());
    }, 120_000);

    afterAll(async () => {
      await container?.stop();
    });

    const makeBus = (fromBeginning: boolean): Promise<ContractBus> =>
      createKafkaBus({
        topics: testTopics,
        brokers,
        clientId: 'kafka-bus-int-test',
        topicPrefix,
        retry: contractRetryPolicy,
        fromBeginning,
        consumer: testConsumer,
      });

    busContract('kafka bus', () => makeBus(true), { deliveryTimeoutMs: 20_000, quietMs: 1000 });

    test('when several processes start at once on topics nobody created yet, then every one of them subscribes', async () => {
      // Arrange: like `docker compose up`, each bus its own client, all creating the same topics together
      const fresh = `${topicPrefix}race-${randomUUID().slice(0, 8)}.`;
      const buses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          createKafkaBus({
            topics: testTopics,
            brokers,
            clientId: `race-${i}`,
            topicPrefix: fresh,
            retry: contractRetryPolicy,
            consumer: testConsumer,
          }),
        ),
      );
      try {
        const seen: number[] = [];
        // Act
        const subscriptions = await Promise.all(
          buses.flatMap((bus, i) => [
            bus.subscribe('test.count', `race-${i}`, async (message) => {
              seen.push(message.value);
            }),
            bus.subscribe('test.greeting', 'race-shared', async () => undefined),
            bus.subscribe('test.greeting', `race-${i}`, async () => undefined),
          ]),
        );
        await buses[0]?.publish('test.count', 'k', { value: 7 });
        // Assert: each of the six groups got the message
        await waitFor(() => seen.length >= 6);
        expect(seen).toEqual([7, 7, 7, 7, 7, 7]);
        await Promise.all(subscriptions.map((subscription) => subscription.stop()));
      } finally {
        await Promise.all(buses.map((bus) => bus.stop()));
      }
    }, 60_000);

    test('when a group reading two topics in one process rebalances, then no consumer crashes and both topics keep flowing', async () => {
      // Arrange: one process (bus) whose group reads two topics, each twice: four kafkajs consumers of one group
      const id = randomUUID().slice(0, 8);
      const group = `two-topics-${id}`;
      const logged: string[] = [];
      const log = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
      const bus = await createKafkaBus({
        topics: testTopics,
        brokers,
        clientId: 'two-topics',
        topicPrefix,
        retry: contractRetryPolicy,
        fromBeginning: true,
        consumer: testConsumer,
        log,
      });
      const other = await makeBus(true);
      const counts: number[] = [];
      const greetings: string[] = [];
      try {
        const subscriptions = await Promise.all(
          [1, 2].flatMap(() => [
            bus.subscribe('test.count', group, async (message, info) => {
              if (info.key.startsWith(id)) counts.push(message.value);
            }),
            bus.subscribe('test.greeting', group, async (message, info) => {
              if (info.key.startsWith(id)) greetings.push(String(message.fields.text?.kind.value));
            }),
          ]),
        );
        const greeting = (text: string) => ({
          fields: { text: { kind: { case: 'stringValue' as const, value: text } } },
        });
        // Act: another process joins the group (a rebalance of all its members), with messages flowing
        for (let i = 0; i < 6; i++) await bus.publish('test.count', `${id}-${i}`, { value: i });
        const joined = await other.subscribe('test.count', group, async (message, info) => {
          if (info.key.startsWith(id)) counts.push(message.value);
        });
        for (let i = 6; i < 12; i++) await bus.publish('test.count', `${id}-${i}`, { value: i });
        for (let i = 0; i < 6; i++) await bus.publish('test.greeting', `${id}-${i}`, greeting(`hi ${i}`));
        // Assert
        await waitFor(() => new Set(counts).size === 12 && new Set(greetings).size === 6);
        expect([...new Set(counts)].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        expect([...new Set(greetings)].sort()).toEqual(['hi 0', 'hi 1', 'hi 2', 'hi 3', 'hi 4', 'hi 5']);
        expect(logged.filter((line) => line.includes('crash'))).toEqual([]);
        await Promise.all([...subscriptions, joined].map((subscription) => subscription.stop()));
      } finally {
        await Promise.all([bus.stop(), other.stop()]);
      }
    }, 60_000);

    test('when a topic waits between fetches (batchWaitMs), then every message still arrives, in order per key', async () => {
      // Arrange
      const id = randomUUID().slice(0, 8);
      const bus = await createKafkaBus({
        topics: testTopics,
        brokers,
        clientId: 'batch-wait',
        topicPrefix,
        retry: contractRetryPolicy,
        fromBeginning: true,
        consumer: testConsumer,
        batchWaitMs: (topic) => (topic === 'test.count' ? 50 : 0),
      });
      const seen = new Map<string, number[]>();
      try {
        const subscription = await bus.subscribe('test.count', `batch-wait-${id}`, async (message, info) => {
          if (info.key.startsWith(id)) seen.set(info.key, [...(seen.get(info.key) ?? []), message.value]);
        });
        // Act: published concurrently, as a busy service does (they leave in one produce request)
        await Promise.all(
          Array.from({ length: 40 }, (_, i) => bus.publish('test.count', `${id}-${i % 4}`, { value: i })),
        );
        // Assert
        await waitFor(() => [...seen.values()].reduce((sum, values) => sum + values.length, 0) >= 40);
        await delay(500);
        expect([...seen.keys()].sort()).toEqual([0, 1, 2, 3].map((k) => `${id}-${k}`));
        for (const [key, values] of seen) {
          const k = Number(key.slice(id.length + 1));
          expect(values).toEqual(Array.from({ length: 10 }, (_, i) => i * 4 + k));
        }
        await subscription.stop();
      } finally {
        await bus.stop();
      }
    }, 60_000);

    describe('kafka bus with fromBeginning false (the default)', () => {
      let bus: ContractBus;
      beforeAll(async () => {
        bus = await makeBus(false);
      });
      afterAll(async () => {
        await bus?.stop();
      });

      test('when a group of one instance has handled messages and left, then it committed no offset (Kafka forgets it)', async () => {
        // Arrange
        const id = randomUUID().slice(0, 8);
        const group = instanceGroup('int-test', id);
        const seen: number[] = [];
        const subscription = await bus.subscribe('test.count', group, async (message, info) => {
          if (info.key.startsWith(id)) seen.push(message.value);
        });
        // Act
        for (let i = 0; i < 6; i++) await bus.publish('test.count', `${id}-${i}`, { value: i });
        await waitFor(() => seen.length === 6);
        await subscription.stop();
        // Assert
        // WARN: setOffsets runs a consumer of its own, whose INFO lines would fill the CI log
        const admin = new Kafka({ clientId: 'kafka-bus-int-test-admin', brokers, logLevel: logLevel.WARN }).admin();
        await admin.connect();
        try {
          const [offsets] = await admin.fetchOffsets({
            groupId: `${topicPrefix}${kafkaGroupId(group, 'test.count')}`,
            topics: [`${topicPrefix}test.count`],
          });
          expect(offsets?.partitions.map((partition) => partition.offset)).toEqual(offsets?.partitions.map(() => '-1'));
          expect(offsets?.partitions.length).toBeGreaterThan(0);
        } finally {
          await admin.disconnect();
        }
      });

      test('when a group subscribes for the first time, then it gets what is published after subscribe, not before', async () => {
        // Arrange
        const id = randomUUID().slice(0, 8);
        const keys = Array.from({ length: 6 }, (_, i) => `${id}-${i}`);
        for (const key of keys) await bus.publish('test.count', key, { value: 1 });
        const seen: number[] = [];
        // Act
        const subscription = await bus.subscribe('test.count', `new-${id}`, async (message, info) => {
          if (info.key.startsWith(id)) seen.push(message.value);
        });
        for (const key of keys) await bus.publish('test.count', key, { value: 2 });
        // Assert
        await waitFor(() => seen.length >= keys.length);
        await delay(1000);
        expect(seen).toEqual(keys.map(() => 2));
        await subscription.stop();
      });

      test("when a service that had one Kafka group for all its topics upgrades, then the topic's new group goes on where the old one stopped", async () => {
        // Arrange: the old group (named like the bus group) has committed the end of test.count;
        // then, while the service is being upgraded, more is published
        const id = randomUUID().slice(0, 8);
        const group = `upgraded-${id}`;
        const keys = Array.from({ length: 6 }, (_, i) => `${id}-${i}`);
        for (const key of keys) await bus.publish('test.count', key, { value: 1 });
        // WARN: setOffsets runs a consumer of its own, whose INFO lines would fill the CI log
        const admin = new Kafka({ clientId: 'kafka-bus-int-test-admin', brokers, logLevel: logLevel.WARN }).admin();
        await admin.connect();
        try {
          const ends = await admin.fetchTopicOffsets(`${topicPrefix}test.count`);
          await admin.setOffsets({
            groupId: `${topicPrefix}${group}`,
            topic: `${topicPrefix}test.count`,
            partitions: ends.map(({ partition, high }) => ({ partition, offset: high })),
          });
        } finally {
          await admin.disconnect();
        }
        for (const key of keys) await bus.publish('test.count', key, { value: 2 });
        const seen: number[] = [];
        // Act
        const subscription = await bus.subscribe('test.count', group, async (message, info) => {
          if (info.key.startsWith(id)) seen.push(message.value);
        });
        // Assert: what came after the old group's offsets, nothing before
        await waitFor(() => seen.length >= keys.length);
        await delay(1000);
        expect(seen).toEqual(keys.map(() => 2));
        await subscription.stop();
      });

      test('when every member of a group has left, then what is published meanwhile reaches its next member', async () => {
        // Arrange: the group handles one message (one partition gets a committed offset), then leaves
        const id = randomUUID().slice(0, 8);
        const group = `comeback-${id}`;
        const seen: number[] = [];
        const first = await bus.subscribe('test.count', group, async (message, info) => {
          if (info.key.startsWith(id)) seen.push(message.value);
        });
        await bus.publish('test.count', `${id}-0`, { value: 0 });
        await waitFor(() => seen.length === 1);
        await first.stop();
        // Act: keys on every partition, with and without a committed offset
        for (let i = 1; i <= 6; i++) await bus.publish('test.count', `${id}-${i}`, { value: i });
        const later: number[] = [];
        const second = await bus.subscribe('test.count', group, async (message, info) => {
          if (info.key.startsWith(id)) later.push(message.value);
        });
        // Assert
        await waitFor(() => later.length >= 6);
        await delay(1000);
        expect([...later].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
        expect(seen).toEqual([0]);
        await second.stop();
      });
    });
  });
}
