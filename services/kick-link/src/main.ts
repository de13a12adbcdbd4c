import { runServiceProcess } from '@kickstand/platform/lifecycle';
import { kickLinkConfigSchema, kickLinkOptionsFromSettings, webhookSpoolFromConfig } from './config';
import { createKickLinkService } from './service';

runServiceProcess({
  service: 'kick-link',
  configSchema: kickLinkConfigSchema,
  create: (deps, config) =>
    createKickLinkService(deps, {
      ...kickLinkOptionsFromSettings(config),
      webhookSpool: webhookSpoolFromConfig(config),
    }),
});
