import { authOptionsFromSettings, createAuthService } from '@kickstand/auth';
import { createBotRunnerService, timerMinuteMsOf } from '@kickstand/bot-runner';
import { commandsOptionsFromSettings, createCommandsService } from '@kickstand/commands';
import { serviceNames, type ServiceName } from '@kickstand/platform/config';
import { createGamesService } from '@kickstand/games';
import { createGateway, rateLimitFrom } from '@kickstand/gateway';
import {
  createKickLinkService,
  kickLinkOptionsFromSettings,
  redirectUriOn,
  type KickLinkService,
} from '@kickstand/kick-link';
import { createKickSandbox, kickSandboxOptionsFromSettings } from '@kickstand/kick-sandbox';
import {
  claimDataDir,
  connectPlatform,
  createBusFromConfig,
  isPrettyLogging,
  startHttpService,
  startMetricsServer,
  type ConnectedPlatform,
  type PlatformDeps,
  type RunningService,
  type Service,
} from '@kickstand/platform/lifecycle';
import { loadOrCreateJwtKeyPair, type JwtKeyPair } from '@kickstand/platform/auth';
import type { Logger } from '@kickstand/platform/log';
import { freePort } from '@kickstand/platform/http';
import { createRealtimeService } from '@kickstand/realtime';
import path from 'node:path';
import type { SingleMachineConfig } from './config';
import { startFrontDoorThread } from './front-door/front-door-thread';
import { trustBehindFrontDoor } from './front-door/trust';

/** A request for Kick's public key the owner thread has not answered within this fails in the front door. */
const handOffTimeoutMs = 10_000;

function serviceFactories(
  config: SingleMachineConfig,
  keys: JwtKeyPair,
  ports: SingleMachine['ports'],
): Omit<Record<ServiceName, (deps: PlatformDeps) => Service>, 'kick-link'> & {
  'kick-link': (deps: PlatformDeps) => KickLinkService;
} {
  const kickLinkOptions = kickLinkOptionsFromSettings(kickSettings(config, ports));
  const authOptions = {
    ...authOptionsFromSettings(config, keys.privateKeyPem),
    // Without SUPER_ADMIN_* a first super administrator is made, its password saved here (mode 0600).
    generatedAdminFile: path.resolve(config.DATA_DIR, 'admin-credentials.txt'),
  };
  return {
    auth: (deps) => createAuthService(deps, authOptions),
    commands: (deps) => createCommandsService(deps, commandsOptionsFromSettings(config)),
    'kick-link': (deps) => createKickLinkService(deps, kickLinkOptions),
    'bot-runner': (deps) => createBotRunnerService(deps, timerMinuteMsOf(config)),
    games: createGamesService,
    realtime: (deps) => createRealtimeService(deps, { instanceId: 'single-machine' }),
  };
}

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
  ports: Record<ServiceName | 'gateway', number> & { 'kick-sandbox'?: number; metrics?: number };
  stop(): Promise<void>;
}

/**
 * The gateway, every service and (without Kick credentials) the Kick sandbox in this one process:
 * one shared in-process bus, one embedded store per service under DATA_DIR/<service>. Each service
 * still listens on its own port (health checks, socket.io), but the gateway hands HTTP requests to
 * the services' apps directly rather than proxying them over loopback.
 *
 * With FRONT_DOOR=thread (the default) the public port belongs to a second thread, the front door
 * (front-door/front-door.ts): it checks Kick's webhooks and hands them to kick-link here, proxies
 * socket.io to realtime and everything else to this thread's gateway, which then listens on a
 * loopback port of its own. Every service, the bus and the stores stay in this thread.
 */
export async function startSingleMachine(config: SingleMachineConfig, log: Logger): Promise<SingleMachine> {
  const releaseDataDir = await claimDataDir(config.DATA_DIR);
  const hasFrontDoor = config.FRONT_DOOR === 'thread';
  // behind the front door every request reaches this thread from loopback, the client's address in X-Forwarded-For
  const platformConfig = hasFrontDoor ? { ...config, TRUST_PROXY: trustBehindFrontDoor(config.TRUST_PROXY) } : config;
  const keys = await jwtKeys(config);

  const bus = await createBusFromConfig(config, 'kickstand', log);
  const platforms: ConnectedPlatform[] = [];
  const running: Array<Pick<RunningService, 'stop'>> = [];
  // Kick must know the gateway's public URL (OAuth redirect, webhooks) before anything listens,
  // so "any free port" (0) is turned into a concrete port first.
  const ports = {
    gateway: await concretePort(config.PORT),
    ...(config.KICK_CLIENT_ID ? {} : { 'kick-sandbox': await concretePort(config.KICK_SANDBOX_PORT) }),
  } as SingleMachine['ports'];

  // Whatever started is stopped again if a later step fails (a port in use, say).
  const stopAll = async () => {
    for (const service of running.reverse()) await service.stop();
    for (const platform of platforms) await platform.close();
    await bus.stop();
    await releaseDataDir();
  };

  try {
    if (!config.KICK_CLIENT_ID) {
      const sandboxPlatform = await connectPlatform(config, {
        service: 'kick-sandbox',
        log: log.child({ service: 'kick-sandbox' }),
        bus,
        jwtPublicKey: keys.publicKeyPem,
      });
      platforms.push(sandboxPlatform);
      const sandbox = await startHttpService(
        createKickSandbox(sandboxPlatform, sandboxOptions(config, ports.gateway, ports['kick-sandbox'] ?? 0)),
        { port: ports['kick-sandbox'] ?? 0, host: '127.0.0.1' },
      );
      running.push(sandbox);
      log.info(
        { url: `http://localhost:${sandbox.port}/sandbox` },
        'no Kick credentials set (KICK_CLIENT_ID): using the local Kick sandbox',
      );
    }
    const factories = serviceFactories(config, keys, ports);
    const apps: Partial<Record<ServiceName, Service['app']>> = {};
    let kickLink: KickLinkService | undefined;
    let socketIo: Service['socketIo'];
    for (const service of serviceNames) {
      const platform = await connectPlatform(platformConfig, {
        service,
        log: log.child({ service }),
        bus,
        jwtPublicKey: keys.publicKeyPem,
      });
      platforms.push(platform);
      const created =
        service === 'kick-link' ? (kickLink = factories['kick-link'](platform)) : factories[service](platform);
      apps[service] = created.app;
      socketIo ??= created.socketIo;
      const started = await startHttpService(created, {
        port: portOf(config, service),
        host: '127.0.0.1',
      });
      running.push(started);
      ports[service] = started.port;
    }
    const upstreams = Object.fromEntries(
      serviceNames.map((service) => [service, `http://127.0.0.1:${ports[service]}`]),
    ) as Record<ServiceName, string>;
    const gatewayPlatform = await connectPlatform(platformConfig, {
      service: 'gateway',
      log: log.child({ service: 'gateway' }),
      bus,
      jwtPublicKey: keys.publicKeyPem,
    });
    platforms.push(gatewayPlatform);
    const gateway = await startHttpService(
      createGateway(gatewayPlatform, {
        upstreams,
        webDistDir: config.WEB_DIST_DIR,
        rateLimit: rateLimitFrom(config),
        // the services are in this process: their requests skip the loopback hop
        inProcessApps: apps,
        // and realtime's socket.io is served on the gateway's server, not proxied to its own (the
        // front door thread, when there is one, tunnels websockets to it and proxies polling to realtime's port)
        inProcessSocketIo: socketIo,
      }),
      // behind the front door: a loopback port of its own
      hasFrontDoor ? { port: 0, host: '127.0.0.1' } : { port: ports.gateway, host: config.HOST },
    );
    running.push(gateway);
    if (hasFrontDoor && kickLink) {
      const door = kickLink.webhookDoor;
      const front = await startFrontDoorThread(
        {
          port: ports.gateway,
          host: config.HOST,
          gatewayUrl: `http://127.0.0.1:${gateway.port}`,
          realtimeUrl: upstreams.realtime,
          bodyLimit: config.HTTP_BODY_LIMIT,
          verification: {
            toleranceSeconds: door.toleranceSeconds,
            refetchIntervalMs: door.refetchIntervalMs,
            fallbackPem: door.fallbackPem,
          },
          handOffTimeoutMs,
          maxUnfinished: config.FRONT_DOOR_MAX_UNFINISHED,
        },
        door,
        {
          log: log.child({ service: 'front-door' }),
          logSettings: { level: config.LOG_LEVEL, pretty: isPrettyLogging(config) },
          memoryLogIntervalMs: config.MEMORY_LOG_INTERVAL_MS,
          // the dashboards' websockets reach realtime through a MessagePort, not its loopback port
          socketIo,
        },
      );
      // stopped first (stopAll goes backwards): Kick's last deliveries are answered while kick-link still runs
      running.push(front);
    }
    if (config.METRICS_PORT !== undefined) {
      // one process, one registry: every service's numbers on one port (loopback unless METRICS_HOST)
      const metrics = await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST });
      running.push(metrics);
      ports.metrics = metrics.port;
    }
  } catch (error) {
    await stopAll();
    throw error;
  }

  return { url: publicUrl(config, ports.gateway), ports, stop: stopAll };
}

/** The sign-in token keys: from JWT_PRIVATE_KEY/JWT_PUBLIC_KEY when set, else made once under DATA_DIR/keys. */
async function jwtKeys(config: SingleMachineConfig): Promise<JwtKeyPair> {
  if (config.JWT_PRIVATE_KEY && config.JWT_PUBLIC_KEY) {
    return { privateKeyPem: config.JWT_PRIVATE_KEY, publicKeyPem: config.JWT_PUBLIC_KEY };
  }
  return loadOrCreateJwtKeyPair(path.resolve(config.DATA_DIR, 'keys'));
}

function publicUrl(config: SingleMachineConfig, gatewayPort: number): string {
  const shownHost = config.HOST === '127.0.0.1' || config.HOST === '0.0.0.0' ? 'localhost' : config.HOST;
  return `http://${shownHost}:${gatewayPort}`;
}

/** The sandbox is registered with this gateway's callback and webhook URLs, whatever port it got. */
function sandboxOptions(config: SingleMachineConfig, gatewayPort: number, sandboxPort: number) {
  const options = kickSandboxOptionsFromSettings(config, sandboxPort);
  const gateway = publicUrl(config, gatewayPort);
  return {
    ...options,
    app: {
      ...options.app,
      redirectUris: [redirectUriOn(gateway)],
      webhookUrl: `${gateway}/api/kick/webhook`,
    },
  };
}

/**
 * 0 means "any free port": one is picked now, so every URL can be known up front, below the
 * ephemeral range so that the services' own `listen(0)` cannot take it before it is listened on.
 */
async function concretePort(port: number): Promise<number> {
  return port === 0 ? freePort() : port;
}

/**
 * Without Kick credentials kick-link talks to the bundled sandbox, registered as the app
 * `kickstand-local` with this gateway's callback; with them, to whatever KICK_* says (real Kick),
 * with the redirect URI on PUBLIC_URL, else on the port this gateway listens on, unless
 * KICK_REDIRECT_URI is set.
 */
export function kickSettings(config: SingleMachineConfig, ports: SingleMachine['ports']): SingleMachineConfig {
  const sandboxPort = ports['kick-sandbox'];
  if (config.KICK_CLIENT_ID || sandboxPort === undefined) {
    return {
      ...config,
      KICK_REDIRECT_URI:
        config.KICK_REDIRECT_URI ?? redirectUriOn(config.PUBLIC_URL ?? publicUrl(config, ports.gateway)),
    };
  }
  const sandbox = `http://localhost:${sandboxPort}`;
  return {
    ...config,
    KICK_CLIENT_ID: config.KICK_SANDBOX_CLIENT_ID,
    KICK_CLIENT_SECRET: config.KICK_SANDBOX_CLIENT_SECRET,
    KICK_OAUTH_URL: sandbox,
    KICK_API_URL: `${sandbox}/public/v1`,
    KICK_REDIRECT_URI: redirectUriOn(publicUrl(config, ports.gateway)),
    // the sandbox's bot account: lets kick-link recognise the bot's own lines for certain
    KICK_BOT_USERNAME: config.KICK_BOT_USERNAME ?? 'kickstand_app',
  };
}
