import type { z } from 'zod';
import { defaultPorts, platformConfigSchema, portSchema } from '@kickstand/platform/config';

export const gamesConfigSchema = platformConfigSchema.extend({
  PORT: portSchema.default(defaultPorts['games']),
});

export type GamesConfig = z.infer<typeof gamesConfigSchema>;
