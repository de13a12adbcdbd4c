import type { z } from 'zod';
import { defaultPorts, platformConfigSchema, portSchema } from '@kickstand/platform/config';

export const realtimeConfigSchema = platformConfigSchema.extend({
  PORT: portSchema.default(defaultPorts['realtime']),
});

export type RealtimeConfig = z.infer<typeof realtimeConfigSchema>;
