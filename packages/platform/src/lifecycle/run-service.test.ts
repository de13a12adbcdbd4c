import * as kafkajs from 'kafkajs';
import { Router } from 'express';
import { z } from 'zod';
import { loadConfig, platformConfigSchema, portSchema } from '../config';
import { createHttpApp } from '../http';
import { createSilentLogger } from '../log';
import { createTempDirs, eventually, testKeyPair } from '../testing';
import type { Subscription } from '../bus';
import { platformReadiness } from './readiness';
import { runProcess, type ProcessHost } from './run-process';
import { startServiceProcess, type ServiceProcessOptions } from './run-service';

/**
 * A service process on Kafka, with kafkajs replaced by a fake that joins a group only when the
 * test says so: what a restarted process does while its dead predecessor still holds the group.
 */

interface FakeConsumer {
  groupId: string;
  connected: boolean;
  /** Disconnects of a connected consumer: each leaves the group (a second disconnect does nothing). */
  groupLeaves: number;
  /** Emits GROUP_JOIN, as kafkajs does once the group's rebalance is over. */
  join(): void;
  /** What kafkajs does on a retriable error (e.g. the coordinator is loading): disconnect, CRASH, restart. */
  crashAndRestart(): void;
}

interface FakeKafkaModule {
  fakeConsumers: FakeConsumer[];
  fakeDisconnects: string[];
}

jest.mock('kafkajs', () => {
  const actual = jest.requireActual<typeof import('kafkajs')>('kafkajs');
  const fakeConsumers: FakeConsumer[] = [];
  const fakeDisconnects: string[] = [];
  const events = {
    GROUP_JOIN: 'consumer.group_join',
    CRASH: 'consumer.crash',
    DISCONNECT: 'consumer.disconnect',
    REBALANCING: 'consumer.rebalancing',
  };
  const partitions = [{ partitionId: 0, leader: 1 }];
  class FakeKafka {
    admin() {
      return {
        connect: async () => undefined,
        disconnect: async () => void fakeDisconnects.push('admin'),
        createTopics: async () => true,
        fetchTopicMetadata: async ({ topics }: { topics: string[] }) => ({
          topics: topics.map((name) => ({ name, partitions })),
        }),
        fetchOffsets: async ({ topics }: { topics: string[] }) =>
          topics.map((topic) => ({ topic, partitions: [{ partition: 0, offset: '-1' }] })),
        fetchTopicOffsets: async () => [{ partition: 0, offset: '0', high: '0', low: '0' }],
        describeCluster: async () => ({ brokers: [], controller: 1, clusterId: 'fake' }),
      };
    }
    producer() {
      return {
        connect: async () => undefined,
        disconnect: async () => void fakeDisconnects.push('producer'),
        send: async () => [],
      };
    }
    consumer({ groupId }: { groupId: string }) {
      const listeners = new Map<string, Set<(event: unknown) => void>>();
      const emit = (name: string, payload: object = {}): void => {
        for (const listener of [...(listeners.get(name) ?? [])]) listener({ payload });
      };
      const consumer = {
        groupId,
        connected: false,
        groupLeaves: 0,
        events,
        on(name: string, listener: (event: unknown) => void) {
          const set = listeners.get(name) ?? new Set();
          set.add(listener);
          listeners.set(name, set);
          return () => set.delete(listener);
        },
        connect: async () => {
          consumer.connected = true;
        },
        subscribe: async () => undefined,
        run: async () => undefined,
        disconnect: async () => {
          if (!consumer.connected) return;
          consumer.connected = false;
          consumer.groupLeaves++;
          emit(events.DISCONNECT);
        },
        join: () => emit(events.GROUP_JOIN),
        crashAndRestart: () => {
          emit(events.DISCONNECT);
          emit(events.CRASH, { error: new Error('The coordinator is loading'), restart: true });
        },
      };
      fakeConsumers.push(consumer);
      return consumer;
    }
  }
  return { ...actual, Kafka: FakeKafka, fakeConsumers, fakeDisconnects };
});

const fake = kafkajs as unknown as FakeKafkaModule;
const serviceConfigSchema = platformConfigSchema.extend({ PORT: portSchema, INSTANCE_ID: z.string() });

// The platform's own readers (the user-access and team-access read models, in groups of this
// instance), then the service's; each in the Kafka group of its group and topic.
const userAccessGroup = 'probe.instance.probe-1.user-access.user.changed';
const teamAccessGroup = 'probe.instance.probe-1.team-access.team.changed';
const joinAll = () => fake.fakeConsumers.forEach((consumer) => consumer.join());

const dirs = createTempDirs('restart');
let dataDir: string;

beforeEach(async () => {
  dataDir = await dirs.make();
  fake.fakeConsumers.length = 0;
  fake.fakeDisconnects.length = 0;
});

afterEach(() => dirs.removeAll());

function configOnKafka() {
  return loadConfig(serviceConfigSchema, {
    KAFKA_BROKERS: 'kafka:9092',
    DATA_DIR: dataDir,
    JWT_PUBLIC_KEY: testKeyPair().publicKeyPem,
    PORT: '0',
    INSTANCE_ID: 'probe-1',
  });
}

/** A service that reads user.changed in its group, as every real one reads its topics in start(). */
const options: ServiceProcessOptions<ReturnType<typeof configOnKafka>> = {
  service: 'probe',
  configSchema: serviceConfigSchema,
  create(deps) {
    let subscription: Subscription | undefined;
    const ping = Router().get('/api/ping', (_req, res) => void res.json({ success: true, data: 'pong' }));
    return {
      app: createHttpApp({
        service: deps.service,
        log: deps.log,
        http: deps.http,
        routes: [ping],
        readiness: platformReadiness(deps),
      }),
      start: async () => {
        subscription = await deps.bus.subscribe('user.changed', 'probe', async () => undefined);
      },
      stop: async () => {
        await subscription?.stop();
      },
    };
  },
};

async function get(port: number, url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`http://127.0.0.1:${port}${url}`);
  return { status: response.status, body: await response.json() };
}

describe('a service process on Kafka', () => {
  test('when its consumer has not joined the group yet, then HTTP and /healthz already answer and /readyz says not ready', async () => {
    const running = await startServiceProcess(options, configOnKafka(), createSilentLogger());
    try {
      expect(fake.fakeConsumers.map(({ groupId, connected }) => ({ groupId, connected }))).toEqual([
        { groupId: userAccessGroup, connected: true },
        { groupId: teamAccessGroup, connected: true },
        { groupId: 'probe.user.changed', connected: true },
      ]);
      expect(await get(running.port, '/healthz')).toEqual({
        status: 200,
        body: { success: true, data: { service: 'probe', status: 'alive' } },
      });
      expect(await get(running.port, '/api/ping')).toEqual({ status: 200, body: { success: true, data: 'pong' } });
      expect(await get(running.port, '/readyz')).toMatchObject({
        status: 503,
        body: {
          success: false,
          error: 'Not ready: consumers unreachable',
          data: { status: 'not-ready', checks: { store: 'up', bus: 'up', consumers: 'down' } },
        },
      });
    } finally {
      await running.stop();
    }
  });

  test('when its consumer has joined the group, then /readyz says ready', async () => {
    const running = await startServiceProcess(options, configOnKafka(), createSilentLogger());
    try {
      fake.fakeConsumers[0]?.join();
      fake.fakeConsumers[1]?.join();
      expect((await get(running.port, '/readyz')).status).toBe(503);
      fake.fakeConsumers[2]?.join();
      expect(await get(running.port, '/readyz')).toMatchObject({
        status: 200,
        body: { success: true, data: { status: 'ready', checks: { store: 'up', bus: 'up', consumers: 'up' } } },
      });
    } finally {
      await running.stop();
    }
  });

  test('when kafkajs restarts the consumer after a retriable crash while joining, then the same consumer joins and /readyz says ready', async () => {
    const running = await startServiceProcess(options, configOnKafka(), createSilentLogger());
    try {
      fake.fakeConsumers[0]?.join();
      fake.fakeConsumers[1]?.join();
      fake.fakeConsumers[2]?.crashAndRestart();
      expect((await get(running.port, '/readyz')).status).toBe(503);
      fake.fakeConsumers[2]?.join();
      expect((await get(running.port, '/readyz')).status).toBe(200);
      expect(fake.fakeConsumers).toHaveLength(3);
    } finally {
      await running.stop();
    }
  });

  test.each([
    ['after its consumer joined', true],
    ['while its consumer is still joining', false],
  ])(
    'when SIGTERM arrives %s, then the consumer leaves the group (disconnect) and the process exits 0',
    async (_when, joined) => {
      const host = createFakeHost();
      let port = 0;
      runProcess({
        log: createSilentLogger(),
        host,
        start: async () => {
          const running = await startServiceProcess(options, configOnKafka(), createSilentLogger());
          port = running.port;
          return running.stop;
        },
      });
      await eventually(async () => expect(port).not.toBe(0));
      if (joined) joinAll();

      host.signal('SIGTERM');

      await eventually(async () => expect(host.exitCodes).toEqual([0]));
      expect(fake.fakeConsumers.map(({ connected, groupLeaves }) => ({ connected, groupLeaves }))).toEqual([
        { connected: false, groupLeaves: 1 },
        { connected: false, groupLeaves: 1 },
        { connected: false, groupLeaves: 1 },
      ]);
      expect(fake.fakeDisconnects.sort()).toEqual(['admin', 'producer']);
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    },
  );
});

function createFakeHost(): ProcessHost & { signal(name: 'SIGTERM' | 'SIGINT'): void; exitCodes: number[] } {
  const signals = new Map<string, () => void>();
  const exitCodes: number[] = [];
  return {
    once(event, listener) {
      signals.set(event, listener);
    },
    on() {
      return undefined;
    },
    exit(code) {
      exitCodes.push(code);
    },
    signal(name) {
      signals.get(name)?.();
    },
    exitCodes,
  };
}
