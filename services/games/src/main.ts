import { runServiceProcess } from '@kickstand/platform/lifecycle';
import { gamesConfigSchema } from './config';
import { createGamesService } from './service';

runServiceProcess({
  service: 'games',
  configSchema: gamesConfigSchema,
  create: (deps, config) =>
    createGamesService(deps, { openDotaUrl: config.OPENDOTA_URL, instanceId: config.INSTANCE_ID }),
});
