import { runServiceProcess } from '@kickstand/platform/lifecycle';
import { kickLinkConfigSchema } from './config';
import { createKickLinkService } from './service';

runServiceProcess({
  service: 'kick-link',
  configSchema: kickLinkConfigSchema,
  create: (deps) => createKickLinkService(deps),
});
