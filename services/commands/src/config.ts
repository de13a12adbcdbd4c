import type { z } from 'zod';
import {
  defaultPorts,
  platformConfigSchema,
  portSchema,
  redeliveryWindowSeconds,
  redeliveryWindowSettingsSchema,
  type PlatformConfig,
} from '@kickstand/platform/config';
import type { CommandsServiceOptions } from './options';

export const commandsConfigSchema = platformConfigSchema
  .extend({
    PORT: portSchema.default(defaultPorts['commands']),
  })
  // with Kafka: how long a counted command.executed is still recognised if Kafka delivers it again
  .extend(redeliveryWindowSettingsSchema.shape);

export type CommandsConfig = z.infer<typeof commandsConfigSchema>;

/** The factory's options from the settings (single-machine mode passes its whole configuration). */
export function commandsOptionsFromSettings(
  settings: z.infer<typeof redeliveryWindowSettingsSchema> & Pick<PlatformConfig, 'KAFKA_BROKERS'>,
): CommandsServiceOptions {
  return {
    redeliveryWindowSeconds: redeliveryWindowSeconds({
      kafkaBrokers: settings.KAFKA_BROKERS,
      kafkaWindowSeconds: settings.KAFKA_REDELIVERY_WINDOW,
    }),
  };
}
