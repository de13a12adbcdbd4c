import type { z } from 'zod';
import { loadConfigOrExit, type PlatformConfig } from '../config';
import { createLogger } from '../log';
import { connectPlatform, type PlatformDeps } from './connect-platform';
import { startMetricsServer } from './metrics-server';
import { runProcess } from './run-process';
import { startHttpService, type Service } from './start-http-service';

export interface ServiceProcessOptions<C extends PlatformConfig & { PORT: number }> {
  service: string;
  configSchema: z.ZodType<C>;
  create(deps: PlatformDeps, config: Readonly<C>): Service;
}

/** Whether log lines should be readable (a person at a terminal) or JSON (everything else). */
export function isPrettyLogging(config: PlatformConfig): boolean {
  if (config.LOG_FORMAT) return config.LOG_FORMAT === 'pretty';
  return config.NODE_ENV !== 'production' && process.stdout.isTTY === true;
}

/** The body of every service's main.ts (distributed mode: one process per service). */
export function runServiceProcess<C extends PlatformConfig & { PORT: number }>(
  options: ServiceProcessOptions<C>,
): void {
  const config: Readonly<C> = loadConfigOrExit(options.configSchema, options.service);
  const log = createLogger({ level: config.LOG_LEVEL, pretty: isPrettyLogging(config) }).child({
    service: options.service,
  });
  runProcess({
    log,
    start: async () => {
      const platform = await connectPlatform(config, { service: options.service, log });
      const running = await startHttpService(options.create(platform, config), { port: config.PORT });
      log.info({ port: running.port }, `${options.service} listening`);
      const metrics =
        config.METRICS_PORT === undefined
          ? undefined
          : await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST });
      if (metrics) log.info({ port: metrics.port, host: config.METRICS_HOST }, 'metrics listening');
      return async () => {
        await metrics?.stop();
        await running.stop();
        await platform.close();
      };
    },
  });
}
