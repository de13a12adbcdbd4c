import { runServiceProcess } from '@kickstand/platform/lifecycle';
import { commandsConfigSchema } from './config';
import { createCommandsService } from './service';

runServiceProcess({
  service: 'commands',
  configSchema: commandsConfigSchema,
  create: (deps) => createCommandsService(deps),
});
