import { z } from 'zod';
import { decodePem, isPrivateKeyPem } from '@kickstand/platform/auth';
import {
  blankAsUnset,
  booleanFlagSchema,
  defaultPorts,
  platformConfigSchema,
  portSchema,
} from '@kickstand/platform/config';
import type { KickSandboxOptions } from './options';
import { realKickPreset } from './real-kick';

const httpUrl = z.url({ protocol: /^https?$/ });
const seconds = z.coerce.number().int().positive();

/**
 * The sandbox's own variables, usable on their own (single-machine mode reads them next to its
 * config). The defaults are what the product's kick-link uses in single-machine mode.
 */
export const kickSandboxSettingsSchema = z.object({
  KICK_SANDBOX_CLIENT_ID: z.string().min(1).default('kickstand-local'),
  KICK_SANDBOX_CLIENT_SECRET: z.string().min(1).default('kickstand-local-secret'),
  KICK_SANDBOX_APP_NAME: z.string().min(1).default('Kickstand (local)'),
  /** One or more, comma-separated; each is matched byte for byte. */
  KICK_SANDBOX_REDIRECT_URI: z
    .string()
    .default('http://localhost:3000/api/kick/oauth/callback')
    .transform((value) =>
      value
        .split(',')
        .map((uri) => uri.trim())
        .filter(Boolean),
    )
    .pipe(z.array(httpUrl).min(1)),
  KICK_SANDBOX_WEBHOOK_URL: httpUrl.default('http://localhost:3000/api/kick/webhook'),
  /** Default http://localhost:<port>. */
  KICK_SANDBOX_PUBLIC_URL: blankAsUnset(httpUrl.optional()),
  KICK_SANDBOX_SUBSCRIPTION_LIMIT: z.coerce.number().int().min(0).default(1000),
  /** Empty = no daily chat quota. */
  KICK_SANDBOX_CHAT_DAILY_QUOTA: blankAsUnset(z.coerce.number().int().min(0).optional()),
  KICK_SANDBOX_USER_TOKEN_SECONDS: seconds.default(7200),
  KICK_SANDBOX_APP_TOKEN_SECONDS: seconds.default(5_184_000),
  KICK_SANDBOX_REFRESH_GRACE_SECONDS: z.coerce.number().int().min(0).default(60),
  /** An RSA private key (PEM, or base64 of it) to sign deliveries with; unset: made at first start. */
  KICK_SANDBOX_SIGNING_KEY: z.preprocess(
    (value) => (value === '' || value === undefined ? undefined : decodePem(String(value))),
    z.string().refine(isPrivateKeyPem, 'must be an RSA private key in PEM (or base64 of the PEM)').optional(),
  ),
  /** Load tests: accept replies to chat message ids the sandbox never saw. */
  KICK_SANDBOX_ACCEPT_UNKNOWN_REPLY_TARGETS: booleanFlagSchema.default(false),
  /** Start with real Kick's undocumented behaviour (`realKickPreset`) instead of kick-api.md to the letter. */
  KICK_SANDBOX_REAL_KICK: booleanFlagSchema.default(false),
});

export type KickSandboxSettings = z.infer<typeof kickSandboxSettingsSchema>;

export const kickSandboxConfigSchema = platformConfigSchema
  .extend({ PORT: portSchema.default(defaultPorts['kick-sandbox']) })
  .extend(kickSandboxSettingsSchema.shape);

export type KickSandboxConfig = z.infer<typeof kickSandboxConfigSchema>;

/** The factory's options from the environment's settings; `port` fills the default public URL. */
export function kickSandboxOptionsFromSettings(settings: KickSandboxSettings, port: number): KickSandboxOptions {
  return {
    publicUrl: settings.KICK_SANDBOX_PUBLIC_URL ?? `http://localhost:${port}`,
    app: {
      clientId: settings.KICK_SANDBOX_CLIENT_ID,
      clientSecret: settings.KICK_SANDBOX_CLIENT_SECRET,
      name: settings.KICK_SANDBOX_APP_NAME,
      redirectUris: settings.KICK_SANDBOX_REDIRECT_URI,
      webhookUrl: settings.KICK_SANDBOX_WEBHOOK_URL,
    },
    tokens: {
      userAccessSeconds: settings.KICK_SANDBOX_USER_TOKEN_SECONDS,
      appAccessSeconds: settings.KICK_SANDBOX_APP_TOKEN_SECONDS,
      refreshGraceSeconds: settings.KICK_SANDBOX_REFRESH_GRACE_SECONDS,
    },
    subscriptionLimit: settings.KICK_SANDBOX_SUBSCRIPTION_LIMIT,
    chatDailyQuota: settings.KICK_SANDBOX_CHAT_DAILY_QUOTA ?? null,
    ...(settings.KICK_SANDBOX_SIGNING_KEY === undefined ? {} : { signingKeyPem: settings.KICK_SANDBOX_SIGNING_KEY }),
    ...(settings.KICK_SANDBOX_ACCEPT_UNKNOWN_REPLY_TARGETS ? { acceptsUnknownReplyTargets: true } : {}),
    ...(settings.KICK_SANDBOX_REAL_KICK ? { realKick: { ...realKickPreset } } : {}),
  };
}
