import type { z } from 'zod';
import { defaultPorts, platformConfigSchema, portSchema } from '@kickstand/platform/config';

export const kickLinkConfigSchema = platformConfigSchema.extend({
  PORT: portSchema.default(defaultPorts['kick-link']),
});

export type KickLinkConfig = z.infer<typeof kickLinkConfigSchema>;
