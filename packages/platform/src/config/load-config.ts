import { z } from 'zod';
import { decodePem, isPrivateKeyPem, isPublicKeyPem } from '../auth/keys';

export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(`Invalid configuration:\n${lines.map((line) => `  ${line}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the environment once through a zod schema and returns a frozen, typed object.
 * Every bad or missing variable is listed by name, so an operator knows what to fix.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): Readonly<z.infer<S>> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = issue.path.join('.') || '(environment)';
        const value = typeof issue.path[0] === 'string' ? env[issue.path[0]] : undefined;
        const shown = value === undefined ? 'missing' : `got "${value}"`;
        return `${name}: ${issue.message} (${shown})`;
      }),
    );
  }
  return Object.freeze(result.data);
}

/** Treats an empty string as unset: `FOO= npm start` means "no FOO", not "FOO is the empty string". */
export function blankAsUnset<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

/** An optional string setting; empty means unset. */
export function optionalString() {
  return blankAsUnset(z.string().optional());
}

export const portSchema = z.coerce.number().int().min(0).max(65535);

/** A whole number of milliseconds within bounds, else the default; the empty string counts as unset. */
function millis(min: number, max: number, defaultMs: number) {
  return blankAsUnset(z.coerce.number().int().min(min).max(max).default(defaultMs));
}

/**
 * The Kafka consumer group timings, in one place: every process reads these defaults, and
 * docker-compose.yml and the k8s ConfigMap repeat them for operators to see (a test keeps the three
 * equal). A member that vanishes (SIGKILL, OOM, a lost node) is noticed within 10 s, so a
 * restarted process's consumers join within about 10 s; a rebalance starts within 1 s of a
 * heartbeat; members have 10 s to finish the message in hand and rejoin. A graceful stop (SIGTERM)
 * leaves the group at once and needs none of these.
 */
export const defaultKafkaTimings = {
  KAFKA_SESSION_TIMEOUT_MS: 10_000,
  KAFKA_HEARTBEAT_INTERVAL_MS: 1_000,
  KAFKA_REBALANCE_TIMEOUT_MS: 10_000,
} as const;

/** A comma-separated list of host:port pairs, e.g. `localhost:9092,localhost:9093`. */
export const brokerListSchema = blankAsUnset(
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((broker) => broker.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/, 'each broker must be host:port')).min(1))
    .optional(),
);

export const booleanFlagSchema = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** auth's private signing key (PEM, or base64 of it). */
export const jwtPrivateKeySchema = z.preprocess(
  (value) => (value === '' || value === undefined ? undefined : decodePem(String(value))),
  z.string().refine(isPrivateKeyPem, 'must be an RSA private key in PEM (or base64 of the PEM)').optional(),
);

/**
 * What every Kickstand process reads. Each service's config.ts extends it with its own variables.
 * KAFKA_BROKERS and MONGO_URL choose the real engines; without them the embedded defaults run.
 */
export const platformConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  KAFKA_BROKERS: brokerListSchema,
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/, 'letters, digits, dots, hyphens and underscores only')
    .default(''),
  /**
   * Consumer group timings (milliseconds, see defaultKafkaTimings): how soon a member that
   * vanished without leaving (a crash, a lost network) is noticed and its partitions handed over
   * (at least 6000, the broker's default group.min.session.timeout.ms).
   */
  KAFKA_SESSION_TIMEOUT_MS: millis(6000, 300_000, defaultKafkaTimings.KAFKA_SESSION_TIMEOUT_MS),
  /** How often a member tells the group it is alive, and so how soon it notices a rebalance. */
  KAFKA_HEARTBEAT_INTERVAL_MS: millis(100, 60_000, defaultKafkaTimings.KAFKA_HEARTBEAT_INTERVAL_MS),
  /** How long a rebalance waits for the members to rejoin. */
  KAFKA_REBALANCE_TIMEOUT_MS: millis(1000, 600_000, defaultKafkaTimings.KAFKA_REBALANCE_TIMEOUT_MS),
  /**
   * Partitions of the chat topics (chat.*) when the bus creates them: the most consumers of one
   * group that get work (bot-runner's autoscaler stops there). Other topics get 3. A topic that
   * exists keeps its count (see docs/distributed.md to raise it).
   */
  KAFKA_PARTITIONS: blankAsUnset(z.coerce.number().int().min(1).max(1000).default(24)),
  /** Copies of each topic the bus creates; unset: the broker's default.replication.factor. */
  KAFKA_REPLICATION_FACTOR: blankAsUnset(z.coerce.number().int().min(1).max(15).optional()),
  /** SASL on the Kafka connection; needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD (see kafkaSecurity). */
  KAFKA_SASL_MECHANISM: blankAsUnset(z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional()),
  KAFKA_SASL_USERNAME: optionalString(),
  KAFKA_SASL_PASSWORD: optionalString(),
  /** TLS to the brokers. */
  KAFKA_SSL: blankAsUnset(booleanFlagSchema.default(false)),
  /** A PEM file of the CA that signed the brokers' certificates, when not a public one (implies KAFKA_SSL). */
  KAFKA_SSL_CA_FILE: optionalString(),
  MONGO_URL: blankAsUnset(
    z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
      .optional(),
  ),
  MONGO_DB_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('kickstand-'),
  DATA_DIR: z.string().min(1).default('data'),
  /** auth's public key (PEM, or base64 of it): every service verifies sign-in tokens with it. */
  JWT_PUBLIC_KEY: z.preprocess(
    (value) => (value === '' || value === undefined ? undefined : decodePem(String(value))),
    z.string().refine(isPublicKeyPem, 'must be an RSA public key in PEM (or base64 of the PEM)').optional(),
  ),
  HTTP_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/, 'a size such as 100kb or 1mb')
    .default('100kb'),
  /**
   * Prometheus `/metrics` on a port of its own; unset means not served at all. Never on the
   * service's (or the gateway's public) port.
   */
  METRICS_PORT: blankAsUnset(portSchema.optional()),
  /** Where the metrics port listens: loopback unless a scraper elsewhere needs it (a pod: 0.0.0.0). */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Which proxies in front may set X-Forwarded-For: "loopback" (single machine), a hop count, or CIDRs. */
  TRUST_PROXY: z.string().min(1).default('loopback'),
});

export type PlatformConfig = z.infer<typeof platformConfigSchema>;

/** How the Kafka clients authenticate and encrypt: what kafkajs takes as `sasl` and `ssl`. */
export interface KafkaSecurity {
  ssl: boolean | { ca: string[] };
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

/**
 * The Kafka security settings, checked together: a mechanism needs a user name and a password, and
 * a user name or password without a mechanism is a mistake rather than something to ignore.
 * `readFile` reads KAFKA_SSL_CA_FILE (injected for tests).
 */
export function kafkaSecurity(
  config: Pick<
    PlatformConfig,
    'KAFKA_SASL_MECHANISM' | 'KAFKA_SASL_USERNAME' | 'KAFKA_SASL_PASSWORD' | 'KAFKA_SSL' | 'KAFKA_SSL_CA_FILE'
  >,
  readFile: (path: string) => string,
): KafkaSecurity {
  const problems: string[] = [];
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: username, KAFKA_SASL_PASSWORD: password } = config;
  if (mechanism && !username)
    problems.push(`KAFKA_SASL_USERNAME: required with KAFKA_SASL_MECHANISM=${mechanism} (missing)`);
  if (mechanism && !password)
    problems.push(`KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM=${mechanism} (missing)`);
  if (!mechanism && (username || password)) {
    problems.push(
      'KAFKA_SASL_MECHANISM: required when a SASL user name or password is set: plain, scram-sha-256 or scram-sha-512 (missing)',
    );
  }
  let ssl: KafkaSecurity['ssl'] = config.KAFKA_SSL;
  if (config.KAFKA_SSL_CA_FILE) {
    try {
      ssl = { ca: [readFile(config.KAFKA_SSL_CA_FILE)] };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      problems.push(`KAFKA_SSL_CA_FILE: cannot be read: ${reason} (got "${config.KAFKA_SSL_CA_FILE}")`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return mechanism && username && password ? { ssl, sasl: { mechanism, username, password } } : { ssl };
}

/** For a process entry: the config, or the list of bad variables on stderr and exit code 1. */
export function loadConfigOrExit<S extends z.ZodType>(schema: S, processName: string): Readonly<z.infer<S>> {
  try {
    return loadConfig(schema);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${processName}: ${error.message}`);
    process.exit(1);
  }
}
