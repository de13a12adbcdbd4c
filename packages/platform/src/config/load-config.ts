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
export function optionalString() {
  return z.preprocess((value) => (value === '' ? undefined : value), z.string().optional());
}

export const portSchema = z.coerce.number().int().min(0).max(65535);

/** An optional whole number of milliseconds within bounds; the empty string counts as unset. */
function optionalMillis(min: number, max: number) {
  return z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(min).max(max).optional(),
  );
}

/** A comma-separated list of host:port pairs, e.g. `localhost:9092,localhost:9093`. */
export const brokerListSchema = z.preprocess(
  (value) => (value === '' ? undefined : value),
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
   * Consumer group tuning (milliseconds), kafkajs's defaults when unset: how soon a member that
   * vanished without leaving (a crash, a lost network) is noticed and its partitions handed over
   * (at least 6000, the broker's default group.min.session.timeout.ms).
   */
  KAFKA_SESSION_TIMEOUT_MS: optionalMillis(6000, 300_000),
  /** How often a member tells the group it is alive, and so how soon it notices a rebalance. */
  KAFKA_HEARTBEAT_INTERVAL_MS: optionalMillis(100, 60_000),
  /** How long a rebalance waits for the members to rejoin. */
  KAFKA_REBALANCE_TIMEOUT_MS: optionalMillis(1000, 600_000),
  MONGO_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
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
  METRICS_PORT: z.preprocess((value) => (value === '' ? undefined : value), portSchema.optional()),
  /** Where the metrics port listens: loopback unless a scraper elsewhere needs it (a pod: 0.0.0.0). */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Which proxies in front may set X-Forwarded-For: "loopback" (single machine), a hop count, or CIDRs. */
  TRUST_PROXY: z.string().min(1).default('loopback'),
});

export type PlatformConfig = z.infer<typeof platformConfigSchema>;

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
