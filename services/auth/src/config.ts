import { createPublicKey } from 'node:crypto';
import { z } from 'zod';
import {
  ConfigError,
  defaultPorts,
  durationSecondsSchema,
  jwtPrivateKeySchema,
  optionalString,
  platformConfigSchema,
  portSchema,
  redeliveryWindowSeconds,
  redeliveryWindowSettingsSchema,
  type PlatformConfig,
} from '@kickstand/platform/config';
import { passwordProblem } from './passwords';
import type { AuthServiceOptions } from './options';
import { usernameLength, usernamePattern } from './users';

/** The public half of the signing key, so auth verifies what it signs without a second variable. */
export function publicKeyOf(privateKeyPem: string): string {
  return createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
}

/** auth's own variables besides the key: usable on their own (single-machine mode reads them too). */
export const authSettingsSchema = z.object({
  JWT_EXPIRES_IN: durationSecondsSchema.default(24 * 3600),
  /** With Kafka: how long a counted command.executed is still recognised if Kafka delivers it again. */
  ...redeliveryWindowSettingsSchema.shape,
  SUPER_ADMIN_EMAIL: optionalString().pipe(
    z.string().regex(z.regexes.email, 'must be a valid email address').optional(),
  ),
  // checked against the password rules by authOptionsFromSettings, which never repeats the value
  SUPER_ADMIN_PASSWORD: optionalString(),
  SUPER_ADMIN_USERNAME: optionalString().pipe(
    z
      .string()
      .min(usernameLength.min, `must be ${usernameLength.min}-${usernameLength.max} characters long`)
      .max(usernameLength.max, `must be ${usernameLength.min}-${usernameLength.max} characters long`)
      .regex(usernamePattern, 'letters, numbers and underscores only')
      .default('admin'),
  ),
});

export type AuthSettings = z.infer<typeof authSettingsSchema>;

export const authConfigSchema = platformConfigSchema
  .extend({
    PORT: portSchema.default(defaultPorts['auth']),
    JWT_PRIVATE_KEY: jwtPrivateKeySchema.pipe(
      z.string({ error: 'required: the RSA private key (PEM, or base64 of the PEM) that signs sign-in tokens' }),
    ),
  })
  .extend(authSettingsSchema.shape)
  .superRefine((config, ctx) => {
    if (config.JWT_PUBLIC_KEY && config.JWT_PUBLIC_KEY.trim() !== publicKeyOf(config.JWT_PRIVATE_KEY).trim()) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_PUBLIC_KEY'],
        message: 'is not the public half of JWT_PRIVATE_KEY (leave it unset in auth: it is derived)',
      });
    }
  })
  // auth verifies its own tokens (profile, admin routes) with the public half of its key
  .transform((config) => ({ ...config, JWT_PUBLIC_KEY: config.JWT_PUBLIC_KEY ?? publicKeyOf(config.JWT_PRIVATE_KEY) }));

export type AuthConfig = z.infer<typeof authConfigSchema>;

/**
 * The factory's options from the settings (with KAFKA_BROKERS: the bus decides the redelivery
 * window; single-machine mode passes its whole configuration). Refuses a half-set super admin and a
 * SUPER_ADMIN_PASSWORD that breaks the password rules (naming the rule, never the value).
 */
export function authOptionsFromSettings(
  settings: AuthSettings & Pick<PlatformConfig, 'KAFKA_BROKERS'>,
  jwtPrivateKey: string,
): AuthServiceOptions {
  const options: AuthServiceOptions = {
    jwtPrivateKey,
    tokenTtlSeconds: settings.JWT_EXPIRES_IN,
    redeliveryWindowSeconds: redeliveryWindowSeconds({
      kafkaBrokers: settings.KAFKA_BROKERS,
      kafkaWindowSeconds: settings.KAFKA_REDELIVERY_WINDOW,
    }),
  };
  if (settings.SUPER_ADMIN_EMAIL && !settings.SUPER_ADMIN_PASSWORD) {
    throw new ConfigError(['SUPER_ADMIN_PASSWORD: required with SUPER_ADMIN_EMAIL (missing)']);
  }
  if (settings.SUPER_ADMIN_PASSWORD && !settings.SUPER_ADMIN_EMAIL) {
    throw new ConfigError(['SUPER_ADMIN_EMAIL: required with SUPER_ADMIN_PASSWORD (missing)']);
  }
  if (settings.SUPER_ADMIN_EMAIL && settings.SUPER_ADMIN_PASSWORD) {
    const problem = passwordProblem(settings.SUPER_ADMIN_PASSWORD);
    if (problem) throw new ConfigError([`SUPER_ADMIN_PASSWORD: ${problem} (value not shown)`]);
    options.superAdmin = {
      email: settings.SUPER_ADMIN_EMAIL,
      password: settings.SUPER_ADMIN_PASSWORD,
      username: settings.SUPER_ADMIN_USERNAME,
    };
  }
  return options;
}

/** The factory's options from auth's own configuration (distributed mode). */
export function authOptionsFromConfig(config: AuthConfig): AuthServiceOptions {
  return authOptionsFromSettings(config, config.JWT_PRIVATE_KEY);
}
