import { runServiceProcess } from '@kickstand/platform/lifecycle';
import { commandsConfigSchema, commandsOptionsFromSettings } from './config';
import { createCommandsService } from './service';

runServiceProcess({
  service: 'commands',
  configSchema: commandsConfigSchema,
  create: (deps, config) => createCommandsService(deps, commandsOptionsFromSettings(config)),
});
