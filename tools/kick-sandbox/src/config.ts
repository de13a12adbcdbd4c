import type { z } from 'zod';
import { defaultPorts, platformConfigSchema, portSchema } from '@kickstand/platform/config';

export const kickSandboxConfigSchema = platformConfigSchema.extend({
  PORT: portSchema.default(defaultPorts['kick-sandbox']),
});

export type KickSandboxConfig = z.infer<typeof kickSandboxConfigSchema>;
