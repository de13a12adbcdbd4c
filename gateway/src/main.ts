import { runServiceProcess } from '@kickstand/platform/lifecycle';
import { gatewayConfigSchema, rateLimitFrom, upstreamsFrom } from './config';
import { createGateway } from './service';

runServiceProcess({
  service: 'gateway',
  configSchema: gatewayConfigSchema,
  create: (deps, config) =>
    createGateway(deps, {
      upstreams: upstreamsFrom(config),
      webDistDir: config.WEB_DIST_DIR,
      rateLimit: rateLimitFrom(config),
    }),
});
