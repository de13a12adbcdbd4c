import type { z } from 'zod';
import { loadConfigOrExit, type PlatformConfig } from '../config';
import { createLogger, type Logger } from '../log';
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

/**
 * Connects the platform, listens, starts the service; returns how to stop it all. HTTP and /healthz
 * are up before the service's start() ends, and on Kafka start() does not wait for the consumer
 * group joins either (they go on in the background, /readyz waits for them): a restarted process
 * serves in seconds instead of waiting for its dead predecessor's session to expire.
 */
export async function startServiceProcess<C extends PlatformConfig & { PORT: number }>(
  options: ServiceProcessOptions<C>,
  config: Readonly<C>,
  log: Logger,
): Promise<{ port: number; stop(): Promise<void> }> {
  const platform = await connectPlatform(config, { service: options.service, log, instanceId: instanceIdOf(config) });
  try {
    const running = await startHttpService(options.create(platform, config), {
      port: config.PORT,
      onListening: (port) => log.info({ port }, `${options.service} listening`),
    });
    log.info({ port: running.port }, `${options.service} started`);
    const metrics =
      config.METRICS_PORT === undefined
        ? undefined
        : await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST });
    if (metrics) log.info({ port: metrics.port, host: config.METRICS_HOST }, 'metrics listening');
    return {
      port: running.port,
      stop: async () => {
        await metrics?.stop();
        // the subscriptions stop first (their consumers leave the group), then the bus and the store
        await running.stop();
        await platform.close();
      },
    };
  } catch (error) {
    await platform.close();
    throw error;
  }
}

/** INSTANCE_ID, for the services whose configuration has it (it names their instance groups). */
function instanceIdOf(config: object): string | undefined {
  return 'INSTANCE_ID' in config && typeof config.INSTANCE_ID === 'string' ? config.INSTANCE_ID : undefined;
}

/** The body of every service's main.ts (distributed mode: one process per service). */
export function runServiceProcess<C extends PlatformConfig & { PORT: number }>(
  options: ServiceProcessOptions<C>,
): void {
  const config: Readonly<C> = loadConfigOrExit(options.configSchema, options.service);
  const log = createLogger({ level: config.LOG_LEVEL, pretty: isPrettyLogging(config) }).child({
    service: options.service,
  });
  runProcess({ log, start: async () => (await startServiceProcess(options, config, log)).stop });
}
