import { createAuthService } from '@kickstand/auth';
import { createBotRunnerService } from '@kickstand/bot-runner';
import { createCommandsService } from '@kickstand/commands';
import { serviceNames, type ServiceName } from '@kickstand/platform/config';
import { createGamesService } from '@kickstand/games';
import { createGateway } from '@kickstand/gateway';
import { createKickLinkService } from '@kickstand/kick-link';
import { createKickSandbox } from '@kickstand/kick-sandbox';
import {
  connectPlatform,
  createBusFromConfig,
  startHttpService,
  type ConnectedPlatform,
  type PlatformDeps,
  type RunningService,
  type Service,
} from '@kickstand/platform/lifecycle';
import { loadOrCreateJwtKeyPair, type JwtKeyPair } from '@kickstand/platform/auth';
import type { Logger } from '@kickstand/platform/log';
import { createRealtimeService } from '@kickstand/realtime';
import path from 'node:path';
import type { SingleMachineConfig } from './config';

const serviceFactories: Record<ServiceName, (deps: PlatformDeps) => Service> = {
  auth: createAuthService,
  commands: createCommandsService,
  'kick-link': createKickLinkService,
  'bot-runner': createBotRunnerService,
  games: createGamesService,
  realtime: createRealtimeService,
};

const portOf = (config: SingleMachineConfig, service: ServiceName): number =>
  ({
    auth: config.AUTH_PORT,
    commands: config.COMMANDS_PORT,
    'kick-link': config.KICK_LINK_PORT,
    'bot-runner': config.BOT_RUNNER_PORT,
    games: config.GAMES_PORT,
    realtime: config.REALTIME_PORT,
  })[service];

export interface SingleMachine {
  /** The gateway's URL: what a person opens. */
  url: string;
  ports: Record<ServiceName | 'gateway', number> & { 'kick-sandbox'?: number };
  stop(): Promise<void>;
}

/**
 * The gateway, every service and (without Kick credentials) the Kick sandbox in this one process:
 * one shared in-process bus, one embedded store per service under DATA_DIR/<service>. Each service
 * still listens on its own port, so the gateway proxies exactly as it does in distributed mode.
 */
export async function startSingleMachine(config: SingleMachineConfig, log: Logger): Promise<SingleMachine> {
  const keys = await jwtKeys(config);
  const bus = await createBusFromConfig(config, 'kickstand', log);
  const platforms: ConnectedPlatform[] = [];
  const running: RunningService[] = [];
  const ports = {} as SingleMachine['ports'];

  // Whatever started is stopped again if a later step fails (a port in use, say).
  const stopAll = async () => {
    for (const service of running.reverse()) await service.stop();
    for (const platform of platforms) await platform.close();
    await bus.stop();
  };

  try {
    if (!config.KICK_CLIENT_ID) {
      const sandbox = await startHttpService(createKickSandbox({ log: log.child({ service: 'kick-sandbox' }) }), {
        port: config.KICK_SANDBOX_PORT,
        host: '127.0.0.1',
      });
      running.push(sandbox);
      ports['kick-sandbox'] = sandbox.port;
    }
    for (const service of serviceNames) {
      const platform = await connectPlatform(config, {
        service,
        log: log.child({ service }),
        bus,
        jwtPublicKey: keys.publicKeyPem,
      });
      platforms.push(platform);
      const started = await startHttpService(serviceFactories[service](platform), {
        port: portOf(config, service),
        host: '127.0.0.1',
      });
      running.push(started);
      ports[service] = started.port;
    }
    const upstreams = Object.fromEntries(
      serviceNames.map((service) => [service, `http://127.0.0.1:${ports[service]}`]),
    ) as Record<ServiceName, string>;
    const gatewayPlatform = await connectPlatform(config, {
      service: 'gateway',
      log: log.child({ service: 'gateway' }),
      bus,
      jwtPublicKey: keys.publicKeyPem,
    });
    platforms.push(gatewayPlatform);
    const gateway = await startHttpService(
      createGateway(gatewayPlatform, { upstreams, webDistDir: config.WEB_DIST_DIR }),
      {
        port: config.PORT,
        host: config.HOST,
      },
    );
    running.push(gateway);
    ports.gateway = gateway.port;
  } catch (error) {
    await stopAll();
    throw error;
  }

  const shownHost = config.HOST === '127.0.0.1' || config.HOST === '0.0.0.0' ? 'localhost' : config.HOST;
  return { url: `http://${shownHost}:${ports.gateway}`, ports, stop: stopAll };
}

/** The sign-in token keys: from JWT_PRIVATE_KEY/JWT_PUBLIC_KEY when set, else made once under DATA_DIR/keys. */
async function jwtKeys(config: SingleMachineConfig): Promise<JwtKeyPair> {
  if (config.JWT_PRIVATE_KEY && config.JWT_PUBLIC_KEY) {
    return { privateKeyPem: config.JWT_PRIVATE_KEY, publicKeyPem: config.JWT_PUBLIC_KEY };
  }
  return loadOrCreateJwtKeyPair(path.resolve(config.DATA_DIR, 'keys'));
}
