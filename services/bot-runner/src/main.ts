import { runServiceProcess } from '@kickstand/platform/lifecycle';
import { botRunnerConfigSchema, timerMinuteMsOf } from './config';
import { createBotRunnerService } from './service';

runServiceProcess({
  service: 'bot-runner',
  configSchema: botRunnerConfigSchema,
  create: (deps, config) =>
    createBotRunnerService(deps, { instanceId: config.INSTANCE_ID, ...timerMinuteMsOf(config) }),
});
