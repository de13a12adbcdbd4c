import { z } from 'zod';
import { defaultPorts, optionalString, platformConfigSchema, portSchema } from '@kickstand/platform/config';

export const botRunnerConfigSchema = platformConfigSchema.extend({
  PORT: portSchema.default(defaultPorts['bot-runner']),
  /**
   * Names this instance's bot.status group (`bot-runner.instance.<INSTANCE_ID>`): must differ between running
   * instances (the pod name on Kubernetes). Unset: a random id per start.
   */
  INSTANCE_ID: optionalString().pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dots, hyphens and underscores only')
      .optional(),
  ),
});

export type BotRunnerConfig = z.infer<typeof botRunnerConfigSchema>;
