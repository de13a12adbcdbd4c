import { hostname } from 'node:os';
import { z } from 'zod';
import { defaultPorts, platformConfigSchema, portSchema, type ServiceName } from '@kickstand/platform/config';
import { defaultApiRateLimit, type ApiRateLimit } from './rate-limit';

const upstreamUrl = (service: ServiceName) =>
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default(`http://127.0.0.1:${defaultPorts[service]}`);

/** The gateway's settings that single-machine mode shares. */
export const gatewaySettingsSchema = z.object({
  /** Requests one client address may make per minute to the /api routes (never Kick's webhook); 0 = off. */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(defaultApiRateLimit.perMinute),
});

export const gatewayConfigSchema = platformConfigSchema.extend(gatewaySettingsSchema.shape).extend({
  PORT: portSchema.default(defaultPorts.gateway),
  WEB_DIST_DIR: z.string().min(1).default('web/dist'),
  /** Names this instance's consumer group; defaults to the host name (the pod name on Kubernetes). */
  INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dots, hyphens and underscores only')
    .default(hostname().replace(/[^A-Za-z0-9._-]/g, '-')),
  AUTH_URL: upstreamUrl('auth'),
  COMMANDS_URL: upstreamUrl('commands'),
  KICK_LINK_URL: upstreamUrl('kick-link'),
  BOT_RUNNER_URL: upstreamUrl('bot-runner'),
  GAMES_URL: upstreamUrl('games'),
  REALTIME_URL: upstreamUrl('realtime'),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export function upstreamsFrom(config: GatewayConfig): Record<ServiceName, string> {
  return {
    auth: config.AUTH_URL,
    commands: config.COMMANDS_URL,
    'kick-link': config.KICK_LINK_URL,
    'bot-runner': config.BOT_RUNNER_URL,
    games: config.GAMES_URL,
    realtime: config.REALTIME_URL,
  };
}

export function rateLimitFrom(config: z.infer<typeof gatewaySettingsSchema>): ApiRateLimit {
  return { perMinute: config.API_RATE_LIMIT_PER_MINUTE };
}
