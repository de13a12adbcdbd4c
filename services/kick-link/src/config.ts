import path from 'node:path';
import { z } from 'zod';
import {
  blankAsUnset,
  ConfigError,
  defaultPorts,
  optionalString,
  platformConfigSchema,
  portSchema,
} from '@kickstand/platform/config';
import { parseEncryptionKey } from './token-crypto';
import { tokenKeyFileIn } from './token-key';
import type { ChatSenderMode, KickLinkOptions, WebhookSpoolOptions } from './options';

const httpUrl = z.url({ protocol: /^https?$/ });
/** An optional URL; the empty string counts as unset. */
const optionalHttpUrl = blankAsUnset(httpUrl.optional());

/** Where Kick sends the browser back to: the gateway's OAuth callback. */
export const oauthCallbackPath = '/api/kick/oauth/callback';

/** The callback on the address the product is served on (no trailing slash doubled). */
export function redirectUriOn(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${oauthCallbackPath}`;
}

/**
 * 32 bytes as base64 (44 characters) or 64 hex digits. Its format is checked by
 * kickLinkOptionsFromSettings, not here: loadConfig quotes a bad value in its message, and this one
 * is a secret.
 */
const encryptionKeySchema = optionalString();

/**
 * kick-link's own variables, without PORT: single-machine mode extends its schema with them and
 * builds the options with kickLinkOptionsFromSettings, the way the Kick sandbox's settings work.
 */
export const kickLinkSettingsSchema = z.object({
  /** The Kick app's client id and secret (Kick developer settings). Required. */
  KICK_CLIENT_ID: optionalString(),
  KICK_CLIENT_SECRET: optionalString(),
  /**
   * The address the product is served on (the gateway, as browsers reach it), e.g.
   * `https://kickstand.example`. Optional: the OAuth redirect URI is derived from it.
   */
  PUBLIC_URL: optionalHttpUrl,
  /**
   * Registered with Kick byte for byte: the gateway's /api/kick/oauth/callback. Default: on
   * PUBLIC_URL; else on the gateway's default port (`http://localhost:3000`); single-machine
   * mode uses the port its gateway listens on.
   */
  KICK_REDIRECT_URI: optionalHttpUrl,
  /** Kick's identity host (OAuth), or the sandbox's base URL. */
  KICK_OAUTH_URL: httpUrl.default('https://id.kick.com'),
  /** Kick's REST base (with /public/v1), or `<sandbox>/public/v1`. */
  KICK_API_URL: httpUrl.default('https://api.kick.com/public/v1'),
  /** AES-256-GCM key for Kick tokens at rest. Required when NODE_ENV=production. */
  KICK_TOKEN_ENCRYPTION_KEY: encryptionKeySchema,
  /**
   * Who posts replies: `auto` (the linked bot account, else `type: "bot"` falling back per channel to
   * `type: "user"`), or always the streamer's token with `bot` or `user`.
   */
  KICK_CHAT_SENDER: z.enum(['auto', 'bot', 'user']).default('auto'),
  /** The Kick username `type: "bot"` lines appear from (the app's bot), to mark them is_from_bot. Optional. */
  KICK_BOT_USERNAME: optionalString(),
  /** How often each running bot's event subscriptions are checked and healed, in minutes. Default 10. */
  KICK_SUBSCRIPTION_CHECK_MINUTES: z.coerce
    .number({ error: 'a whole number of minutes from 1 to 1440' })
    .int('a whole number of minutes from 1 to 1440')
    .min(1, 'a whole number of minutes from 1 to 1440')
    .max(1440, 'a whole number of minutes from 1 to 1440')
    .default(10),
  /**
   * Connections open to one Kick host at most (replies beyond them wait for a free one). Default 32
   * (docs/performance.md, "Connections to Kick").
   */
  KICK_MAX_CONNECTIONS: z.coerce
    .number({ error: 'a whole number from 1 to 1024' })
    .int('a whole number from 1 to 1024')
    .min(1, 'a whole number from 1 to 1024')
    .max(1024, 'a whole number from 1 to 1024')
    .default(32),
});

export type KickLinkSettings = z.infer<typeof kickLinkSettingsSchema>;

/** Distributed mode (main.ts): the platform's variables, PORT, and the settings above, checked together. */
export const kickLinkConfigSchema = platformConfigSchema
  .extend({
    PORT: portSchema.default(defaultPorts['kick-link']),
    /**
     * On Kafka only: where the webhook door keeps deliveries Kafka cannot take in time, until they
     * are forwarded. Default `<DATA_DIR>/kick-link-spool`. Put it on a volume that outlives the process.
     */
    SPOOL_DIR: optionalString(),
    /** The most bytes the spool holds; past it, such deliveries are answered 503. Default 256 MiB. */
    SPOOL_MAX_BYTES: z.coerce
      .number({ error: 'a whole number of bytes, at least 1048576 (1 MiB)' })
      .int('a whole number of bytes, at least 1048576 (1 MiB)')
      .min(1024 * 1024, 'a whole number of bytes, at least 1048576 (1 MiB)')
      .default(256 * 1024 * 1024),
  })
  .extend(kickLinkSettingsSchema.shape)
  .superRefine((config, context) => {
    // only what is missing: a present but malformed key is reported by kickLinkOptionsFromSettings,
    // whose message does not quote it
    for (const problem of settingsProblems(config).filter(({ variable }) => !config[variable])) {
      context.addIssue({ code: 'custom', path: [problem.variable], message: problem.message });
    }
  });

export type KickLinkConfig = z.infer<typeof kickLinkConfigSchema>;

interface SettingsProblem {
  variable: keyof KickLinkSettings;
  message: string;
}

function isEncryptionKey(text: string): boolean {
  try {
    parseEncryptionKey(text);
    return true;
  } catch {
    return false;
  }
}

function settingsProblems(settings: KickLinkSettings & { NODE_ENV?: string }): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  if (!settings.KICK_CLIENT_ID) {
    problems.push({ variable: 'KICK_CLIENT_ID', message: "required: the Kick app's client id" });
  }
  if (!settings.KICK_CLIENT_SECRET) {
    problems.push({ variable: 'KICK_CLIENT_SECRET', message: "required: the Kick app's client secret" });
  }
  if (settings.KICK_TOKEN_ENCRYPTION_KEY && !isEncryptionKey(settings.KICK_TOKEN_ENCRYPTION_KEY)) {
    problems.push({
      variable: 'KICK_TOKEN_ENCRYPTION_KEY',
      message: 'must be 32 bytes: base64 (44 characters) or 64 hex digits',
    });
  }
  if (settings.NODE_ENV === 'production' && !settings.KICK_TOKEN_ENCRYPTION_KEY) {
    problems.push({
      variable: 'KICK_TOKEN_ENCRYPTION_KEY',
      message: 'required in production: 32 bytes as base64 or 64 hex digits, to encrypt Kick tokens at rest',
    });
  }
  return problems;
}

/**
 * The factory's options from the settings. Throws a ConfigError naming each missing variable
 * (client id and secret; the encryption key when NODE_ENV=production).
 */
export function kickLinkOptionsFromSettings(
  settings: KickLinkSettings & { NODE_ENV?: string; DATA_DIR?: string },
): KickLinkOptions {
  const problems = settingsProblems(settings);
  if (problems.length > 0) {
    throw new ConfigError(
      problems.map(
        ({ variable, message }) => `${variable}: ${message} (${settings[variable] ? 'value not shown' : 'missing'})`,
      ),
    );
  }
  return {
    kick: {
      clientId: settings.KICK_CLIENT_ID ?? '',
      clientSecret: settings.KICK_CLIENT_SECRET ?? '',
      redirectUri:
        settings.KICK_REDIRECT_URI ?? redirectUriOn(settings.PUBLIC_URL ?? `http://localhost:${defaultPorts.gateway}`),
      oauthUrl: settings.KICK_OAUTH_URL,
      apiUrl: settings.KICK_API_URL,
    },
    tokenEncryptionKey: settings.KICK_TOKEN_ENCRYPTION_KEY
      ? parseEncryptionKey(settings.KICK_TOKEN_ENCRYPTION_KEY)
      : undefined,
    ...(settings.DATA_DIR ? { tokenKeyFile: tokenKeyFileIn(settings.DATA_DIR) } : {}),
    isProduction: settings.NODE_ENV === 'production',
    chatSender: settings.KICK_CHAT_SENDER satisfies ChatSenderMode,
    botUsername: settings.KICK_BOT_USERNAME,
    deliveryHealth: { reconcileIntervalMs: settings.KICK_SUBSCRIPTION_CHECK_MINUTES * 60_000 },
    http: { maxConnections: settings.KICK_MAX_CONNECTIONS },
  };
}

/** The webhook door's spool in distributed mode: on Kafka only (the in-process bus always takes a message). */
export function webhookSpoolFromConfig(
  config: Pick<KickLinkConfig, 'KAFKA_BROKERS' | 'DATA_DIR' | 'SPOOL_DIR' | 'SPOOL_MAX_BYTES'>,
): WebhookSpoolOptions | undefined {
  if (!config.KAFKA_BROKERS) return undefined;
  return {
    dir: path.resolve(config.SPOOL_DIR ?? path.join(config.DATA_DIR, 'kick-link-spool')),
    maxBytes: config.SPOOL_MAX_BYTES,
  };
}
