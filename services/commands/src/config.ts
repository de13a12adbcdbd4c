import type { z } from 'zod';
import { defaultPorts, platformConfigSchema, portSchema } from '@kickstand/platform/config';

export const commandsConfigSchema = platformConfigSchema.extend({
  PORT: portSchema.default(defaultPorts['commands']),
});

export type CommandsConfig = z.infer<typeof commandsConfigSchema>;
