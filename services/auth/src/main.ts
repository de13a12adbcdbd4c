import { runServiceProcess } from '@kickstand/platform/lifecycle';
import { authConfigSchema } from './config';
import { createAuthService } from './service';

runServiceProcess({ service: 'auth', configSchema: authConfigSchema, create: (deps) => createAuthService(deps) });
