import { hostname } from 'node:os';
import { z } from 'zod';
import { defaultPorts, platformConfigSchema, portSchema } from '@kickstand/platform/config';

/** The host name (the pod name on Kubernetes) with anything outside [A-Za-z0-9._-] turned into `-`. */
export function defaultInstanceId(): string {
  return hostname().replace(/[^A-Za-z0-9._-]/g, '-');
}

export const realtimeConfigSchema = platformConfigSchema.extend({
  PORT: portSchema.default(defaultPorts['realtime']),
  /** Names this instance's consumer group `realtime.instance.<INSTANCE_ID>`: every instance reads every event. */
  INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dots, hyphens and underscores only')
    .default(defaultInstanceId),
});

export type RealtimeConfig = z.infer<typeof realtimeConfigSchema>;
