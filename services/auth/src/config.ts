import type { z } from 'zod';
import { defaultPorts, platformConfigSchema, portSchema } from '@kickstand/platform/config';

export const authConfigSchema = platformConfigSchema.extend({
  PORT: portSchema.default(defaultPorts['auth']),
});

export type AuthConfig = z.infer<typeof authConfigSchema>;
