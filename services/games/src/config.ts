import { hostname } from 'node:os';
import { z } from 'zod';
import { defaultPorts, platformConfigSchema, portSchema } from '@kickstand/platform/config';
import { defaultOpenDotaUrl } from './opendota-client';

export const gamesConfigSchema = platformConfigSchema.extend({
  PORT: portSchema.default(defaultPorts['games']),
  /** OpenDota's API base URL ($mmr / $rank); a local stand-in in tests. */
  OPENDOTA_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default(defaultOpenDotaUrl),
  /** Names this instance as a game-timer lease holder; defaults to the host name (the pod name on Kubernetes). */
  INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dots, hyphens and underscores only')
    .default(hostname().replace(/[^A-Za-z0-9._-]/g, '-')),
});

export type GamesConfig = z.infer<typeof gamesConfigSchema>;
