import type { z } from 'zod';
import { defaultPorts, platformConfigSchema, portSchema } from '@kickstand/platform/config';

export const botRunnerConfigSchema = platformConfigSchema.extend({
  PORT: portSchema.default(defaultPorts['bot-runner']),
});

export type BotRunnerConfig = z.infer<typeof botRunnerConfigSchema>;
