import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import {
  createInProcessBus,
  createKafkaBus,
  defaultRetryPolicy,
  chatRateTopics,
  kickstandTopics,
  type KafkaConsumerTuning,
  type KickstandBus,
} from '../bus';
import { instrumentBus, processMetrics } from '../metrics';
import {
  createEditorActionRecorder,
  createTeamAccess,
  createTokenVerifier,
  createUserAccess,
  subscribeTeamAccess,
  subscribeUserAccess,
  type TokenVerifier,
} from '../auth';
import { systemClock, type Clock } from '../clock';
import { ConfigError, kafkaSecurity, type PlatformConfig } from '../config';
import type { HttpSettings } from '../http';
import type { Logger } from '../log';
import { createEmbeddedStore, createMongoStore, type Store } from '../store';

/** What every service factory receives: ports, never engines. */
export interface PlatformDeps {
  service: string;
  log: Logger;
  bus: KickstandBus;
  store: Store;
  clock: Clock;
  /**
   * Checks sign-in tokens with auth's public key and the user-access read model (deactivated users,
   * signed-out tokens, changed roles), which the platform feeds from user.changed.
   */
  tokens: TokenVerifier;
  /** For createHttpApp: body size limit and trusted proxies. */
  http: HttpSettings;
}

export interface ConnectedPlatform extends PlatformDeps {
  /** Closes what connectPlatform opened (a bus passed in is left alone: its owner closes it). */
  close(): Promise<void>;
}

export interface ConnectOptions {
  service: string;
  log: Logger;
  /** Single-machine mode shares one in-process bus between every service. */
  bus?: KickstandBus;
  clock?: Clock;
  /** Single-machine mode hands over the key it made; otherwise JWT_PUBLIC_KEY is required. */
  jwtPublicKey?: string;
  /** Names this instance's user.changed group (`<service>.instance.<id>.user-access`); host name and pid by default. */
  instanceId?: string;
}

/** KAFKA_SESSION_TIMEOUT_MS & co. (defaults: defaultKafkaTimings) as kafkajs's consumer options. */
export function consumerTuning(config: PlatformConfig): KafkaConsumerTuning {
  return {
    sessionTimeout: config.KAFKA_SESSION_TIMEOUT_MS,
    heartbeatInterval: config.KAFKA_HEARTBEAT_INTERVAL_MS,
    rebalanceTimeout: config.KAFKA_REBALANCE_TIMEOUT_MS,
  };
}

/** KAFKA_PARTITIONS for the chat topics (the ones consumers scale on), 3 for the rest. */
export function topicPartitions(config: Pick<PlatformConfig, 'KAFKA_PARTITIONS'>): (topic: string) => number {
  return (topic) => (topic.startsWith('chat.') ? config.KAFKA_PARTITIONS : 3);
}

/**
 * How long a consumer of a chat-rate topic waits after handling a fetch before the next one: at
 * hundreds of messages a second it fetches (and commits) ~50 times a second instead of once per
 * message or two, for at most this much more latency per hop (a reply crosses two: chat.received
 * and chat.send). An idle consumer does not wait (see KafkaBusOptions.batchWaitMs).
 */
export const chatBatchWaitMs = 20;

/**
 * The same wait for the chat-rate readers no reply waits for: realtime (dashboards, stream
 * analytics), auth (command analytics), commands (usage per command), bot-runner's timers
 * (counting chat lines). A consumer with traffic fetches about once per wait whatever the rate, so
 * at ~100 messages a second these readers fetched and committed ~40 times a second each, for one
 * or two messages a fetch; now ~9 times. Dashboards see a chat line up to this much later.
 */
export const sideBatchWaitMs = 100;

/** The bus groups of `sideBatchWaitMs` readers (their services' consumer group constants). */
const sideReaderGroups = new Set(['auth', 'realtime', 'commands-usage', 'bot-runner.timers']);

/** The readers of `sideBatchWaitMs`: by bus group (realtime's dashboards read through one group per instance). */
export function isSideReader(group: string): boolean {
  return sideReaderGroups.has(group) || group.startsWith('realtime.instance.');
}

/** How long a consumer of `topic` in `group` lets messages gather between fetches (KafkaBusOptions.batchWaitMs). */
export function batchWaitOf(topic: string, group: string): number {
  if (!chatRateTopics.has(topic)) return 0;
  return isSideReader(group) ? sideBatchWaitMs : chatBatchWaitMs;
}

/** Kafka when KAFKA_BROKERS is set, else the in-process bus. */
export async function createBusFromConfig(
  config: PlatformConfig,
  clientId: string,
  log: Logger,
): Promise<KickstandBus> {
  if (config.KAFKA_BROKERS) {
    return createKafkaBus({
      topics: kickstandTopics,
      brokers: config.KAFKA_BROKERS,
      clientId,
      topicPrefix: config.KAFKA_TOPIC_PREFIX,
      partitions: topicPartitions(config),
      ...(config.KAFKA_REPLICATION_FACTOR !== undefined ? { replicationFactor: config.KAFKA_REPLICATION_FACTOR } : {}),
      ...kafkaSecurity(config, (file) => readFileSync(file, 'utf8')),
      log,
      consumer: consumerTuning(config),
      batchWaitMs: batchWaitOf,
      // HTTP and /healthz come up at once; /readyz waits for the joins (see platformReadiness).
      joinInBackground: true,
    });
  }
  return createInProcessBus({ topics: kickstandTopics, log });
}

/**
 * Chooses the adapters from the configuration: Kafka when KAFKA_BROKERS is set, else the
 * in-process bus; MongoDB (one database per service) when MONGO_URL is set, else the embedded
 * store under DATA_DIR/<service>.
 */
export async function connectPlatform(config: PlatformConfig, options: ConnectOptions): Promise<ConnectedPlatform> {
  const { service, log } = options;
  const clock = options.clock ?? systemClock;
  const jwtPublicKey = options.jwtPublicKey ?? config.JWT_PUBLIC_KEY;
  if (!jwtPublicKey) {
    throw new ConfigError(["JWT_PUBLIC_KEY: required: auth's public key, to verify sign-in tokens (missing)"]);
  }
  const ownsBus = options.bus === undefined;
  const ownBus = options.bus ?? (await createBusFromConfig(config, service, log));
  // Counted per service even when single-machine mode shares one bus between all of them.
  const bus = instrumentBus(ownBus, service, processMetrics(), defaultRetryPolicy.maxAttempts);
  const store = config.MONGO_URL
    ? await createMongoStore({ url: config.MONGO_URL, dbName: `${config.MONGO_DB_PREFIX}${service}`, clock, log })
    : await createEmbeddedStore({ dir: path.resolve(config.DATA_DIR, service), clock, log });
  const access = createUserAccess(store);
  await access.load();
  const instanceId = options.instanceId ?? `${hostname()}-${process.pid}`;
  const userChanges = await subscribeUserAccess(bus, service, instanceId, access);
  const team = createTeamAccess();
  const teamChanges = await subscribeTeamAccess(bus, service, instanceId, team);
  log.info(
    { bus: config.KAFKA_BROKERS ? 'kafka' : 'in-process', store: config.MONGO_URL ? 'mongodb' : 'embedded' },
    'platform connected',
  );
  return {
    service,
    log,
    bus,
    store,
    clock,
    tokens: createTokenVerifier(jwtPublicKey, clock, access, {
      team,
      isShutOut: access.isShutOut,
      recordEditorAction: createEditorActionRecorder({ bus, clock, log, service }),
    }),
    http: { bodyLimit: config.HTTP_BODY_LIMIT, trustProxy: config.TRUST_PROXY },
    close: async () => {
      await teamChanges.stop();
      await userChanges.stop();
      if (ownsBus) await bus.stop();
      await store.close();
    },
  };
}
