import { runServiceProcess } from '@kickstand/platform/lifecycle';
import { gatewayConfigSchema, upstreamsFrom } from './config';
import { createGateway } from './service';

runServiceProcess({
  service: 'gateway',
  configSchema: gatewayConfigSchema,
  create: (deps, config) =>
    createGateway(deps, {
      upstreams: upstreamsFrom(config),
      webDistDir: config.WEB_DIST_DIR,
    }),
});
