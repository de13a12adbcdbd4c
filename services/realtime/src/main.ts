import { runServiceProcess } from '@kickstand/platform/lifecycle';
import { realtimeConfigSchema } from './config';
import { createRealtimeService } from './service';

runServiceProcess({
  service: 'realtime',
  configSchema: realtimeConfigSchema,
  create: (deps, config) => createRealtimeService(deps, { instanceId: config.INSTANCE_ID }),
});
