import { runServiceProcess } from '@kickstand/platform/lifecycle';
import { authConfigSchema, authOptionsFromConfig } from './config';
import { createAuthService } from './service';

runServiceProcess({
  service: 'auth',
  configSchema: authConfigSchema,
  create: (deps, config) => createAuthService(deps, authOptionsFromConfig(config)),
});
