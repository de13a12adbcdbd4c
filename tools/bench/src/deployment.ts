import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '@kickstand/platform/http';
import type { AllocationProfileKind } from './allocation-probe';
import type { WatchedProcess } from './process-stats';
import { npmStartEnv, npmStartNodeFlags } from './npm-start-flags';

/**
 * Starts what is measured, each part as its own OS process so that its CPU and memory can be read:
 * the Kick sandbox standing in for Kick (always its own process, like Kick on its own machines),
 * and Kickstand in single-machine mode (one process) or distributed mode (one per part). Output
 * goes straight to a log file per process, never through the generator.
 */

export const repoRoot = path.resolve(__dirname, '..', '..', '..');

/**
 * Whose Kickstand runs: this checkout, or another built one (BENCH_KICKSTAND_ROOT) to compare two
 * versions under the same generator; the sandbox always comes from this checkout.
 */
export const kickstandRoot = path.resolve(process.env.BENCH_KICKSTAND_ROOT ?? repoRoot);

export interface BenchKeys {
  /** auth's JWT pair: the bench mints dashboard tokens with it. */
  jwtPrivateKeyPem: string;
  jwtPublicKeyPem: string;
  /** The sandbox's webhook signing key: the generator signs with it too. */
  signingKeyPem: string;
  /** AES key for Kick tokens at rest (NODE_ENV=production needs one). */
  tokenEncryptionKey: string;
}

export interface RunningProcess extends WatchedProcess {
  child: ChildProcess;
  logFile: string;
  port: number;
  /** How it was started (to start it again). */
  options: ProcessOptions;
}

export interface Deployment {
  mode: 'single' | 'distributed';
  gatewayUrl: string;
  gatewayPort: number;
  sandboxUrl: string;
  /** Kickstand's own processes (not the sandbox). */
  kickstand: RunningProcess[];
  /** Where each part listens (single mode: read from its "all services started" log line). */
  servicePorts: Record<string, number>;
  sandbox: RunningProcess;
  /** Single-machine mode: Kickstand's Prometheus endpoint (METRICS_PORT), read around each measured window. */
  metricsUrl?: string;
  /**
   * SIGKILLs one of Kickstand's processes (by name: gateway, kick-link, …) and starts it again as it
   * was, resolving once it answers /healthz (the drill's crash).
   */
  crash(name: string): Promise<void>;
  stop(): Promise<void>;
}

export interface DeploymentOptions {
  mode: 'single' | 'distributed';
  runDir: string;
  keys: BenchKeys;
  /** Data folders (embedded stores) of Kickstand and of the sandbox. */
  kickstandDataDir: string;
  sandboxDataDir: string;
  /** Distributed mode: the engines and this run's prefixes. */
  kafkaBrokers?: string;
  mongoUrl?: string;
  topicPrefix?: string;
  mongoDbPrefix?: string;
  /** Extra node flags for Kickstand's processes (e.g. --cpu-prof). */
  nodeFlags?: string[];
  /** Extra node flags for the Kick sandbox (`--sandbox-node-flags`). */
  sandboxNodeFlags?: string[];
  /**
   * Single-machine mode: preload allocation-probe.js into Kickstand, writing the owner thread's
   * allocation profile (of this kind) of each window (SIGUSR2 at its start and end) into `dir`.
   */
  allocationProfile?: { dir: string; kind: AllocationProfileKind };
  /** Kickstand's LOG_LEVEL (its default, info, unless told). */
  logLevel?: string;
  /** The sandbox echoes the bot's own lines back as webhooks, as Kick does. Default true. */
  isEchoOn?: boolean;
}

/**
 * The sandbox is profiled when Kickstand is (`--cpu-prof`), into a folder of its own
 * (`<run>/profiles/kick-sandbox`): it shares the machine, so its share is part of the picture.
 * Kickstand's other node flags are not its; its own come from `--sandbox-node-flags`.
 */
function sandboxNodeFlags(options: DeploymentOptions): string[] {
  const own = options.sandboxNodeFlags ?? [];
  const flags = options.nodeFlags ?? [];
  if (!flags.includes('--cpu-prof')) return own;
  const interval = flags.filter((flag) => flag.startsWith('--cpu-prof-interval'));
  return ['--cpu-prof', `--cpu-prof-dir=${path.join(options.runDir, 'profiles', 'kick-sandbox')}`, ...interval, ...own];
}

export { freePort };

interface ProcessOptions {
  name: string;
  entry: string;
  env: NodeJS.ProcessEnv;
  logDir: string;
  port: number;
  args?: string[];
  nodeFlags?: string[];
  root?: string;
}

function startProcess(options: ProcessOptions): RunningProcess {
  const logFile = path.join(options.logDir, `${options.name}.log`);
  const fd = openSync(logFile, 'a');
  const root = options.root ?? kickstandRoot;
  const child = spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), path.join(root, options.entry), ...(options.args ?? [])],
    {
      cwd: root,
      env: options.env,
      stdio: ['ignore', fd, fd],
    },
  );
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${options.name} did not start`);
  return { name: options.name, pid: child.pid, child, logFile, port: options.port, options };
}

async function waitReady(url: string, processes: readonly RunningProcess[], timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const exited = processes.find((p) => p.child.exitCode !== null || p.child.signalCode !== null);
    if (exited) throw new Error(`${exited.name} exited while starting (see ${exited.logFile})`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} was not ready within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Single-machine mode logs `{"ports":{…},"msg":"all services started"}` once everything listens. */
async function portsFromLog(logFile: string): Promise<Record<string, number>> {
  const text = await readFile(logFile, 'utf8');
  for (const line of text.split('\n')) {
    if (!line.includes('all services started')) continue;
    try {
      return (JSON.parse(line) as { ports?: Record<string, number> }).ports ?? {};
    } catch {
      return {};
    }
  }
  return {};
}

async function stopProcess(p: RunningProcess): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => p.child.once('exit', () => resolve()));
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Settings of single-machine mode the bench's own environment may set, to compare one against
 * Kickstand's default (unset: the default, as `npm start` has it): FRONT_DOOR (thread or inline),
 * HEAP_GROWING_PERCENT, MEMORY_LOG_INTERVAL_MS (each thread logs its heap), MALLOC_ARENA_MAX and
 * MALLOC_MMAP_THRESHOLD_ (glibc), KICK_MAX_CONNECTIONS (kick-link's connections to the sandbox).
 */
export const passedThroughNames = [
  'FRONT_DOOR',
  'HEAP_GROWING_PERCENT',
  'KICK_MAX_CONNECTIONS',
  'MEMORY_LOG_INTERVAL_MS',
  'MALLOC_ARENA_MAX',
  'MALLOC_MMAP_THRESHOLD_',
];
export const passedThrough = (): NodeJS.ProcessEnv =>
  Object.fromEntries(passedThroughNames.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));

const baseEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: process.env.LANG };
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
};

export async function startDeployment(options: DeploymentOptions): Promise<Deployment> {
  const logDir = path.join(options.runDir, 'logs');
  await mkdir(logDir, { recursive: true });
  const gatewayPort = await freePort();
  const sandboxPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  // the browser-facing URL Kick redirects to; kick-link's redirect URI must match it byte for byte
  const publicGatewayUrl = `http://localhost:${gatewayPort}`;
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const started: RunningProcess[] = [];
  const stopAll = async () => {
    for (const p of [...started].reverse()) await stopProcess(p);
  };

  try {
    // Kick: the sandbox, on its own store and with the bench's signing key, quiet (its request log is not Kickstand's)
    const sandbox = startProcess({
      name: 'kick-sandbox',
      entry: 'tools/kick-sandbox/dist/main.js',
      root: repoRoot,
      logDir,
      port: sandboxPort,
      nodeFlags: sandboxNodeFlags(options),
      env: {
        ...baseEnv(),
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        PORT: String(sandboxPort),
        DATA_DIR: options.sandboxDataDir,
        KICK_SANDBOX_PUBLIC_URL: `http://localhost:${sandboxPort}`,
        KICK_SANDBOX_REDIRECT_URI: `${publicGatewayUrl}/api/kick/oauth/callback`,
        KICK_SANDBOX_WEBHOOK_URL: `${gatewayUrl}/api/kick/webhook`,
        KICK_SANDBOX_SUBSCRIPTION_LIMIT: '100000',
        KICK_SANDBOX_USER_TOKEN_SECONDS: String(30 * 24 * 3600),
        KICK_SANDBOX_SIGNING_KEY: options.keys.signingKeyPem,
        KICK_SANDBOX_ACCEPT_UNKNOWN_REPLY_TARGETS: 'true',
      },
    });
    started.push(sandbox);
    await waitReady(`${sandboxUrl}/readyz`, [sandbox]);

    const kickEnv = {
      KICK_CLIENT_ID: 'kickstand-local',
      KICK_CLIENT_SECRET: 'kickstand-local-secret',
      KICK_OAUTH_URL: `http://localhost:${sandboxPort}`,
      KICK_API_URL: `http://localhost:${sandboxPort}/public/v1`,
      KICK_REDIRECT_URI: `${publicGatewayUrl}/api/kick/oauth/callback`,
      KICK_BOT_USERNAME: 'kickstand_app',
      KICK_TOKEN_ENCRYPTION_KEY: options.keys.tokenEncryptionKey,
    };
    const common = {
      ...baseEnv(),
      NODE_ENV: 'production',
      LOG_LEVEL: options.logLevel ?? 'info',
      LOG_FORMAT: 'json',
      DATA_DIR: options.kickstandDataDir,
      JWT_PUBLIC_KEY: options.keys.jwtPublicKeyPem,
    };

    const kickstand: RunningProcess[] = [];
    const servicePorts: Record<string, number> = { gateway: gatewayPort };
    let metricsUrl: string | undefined;
    if (options.mode === 'single') {
      const metricsPort = await freePort();
      metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      const single = startProcess({
        name: 'kickstand',
        entry: 'apps/single-machine/dist/main.js',
        logDir,
        port: gatewayPort,
        nodeFlags: [
          ...npmStartNodeFlags,
          ...(options.nodeFlags ?? []),
          ...(options.allocationProfile ? ['--require', path.join(__dirname, 'allocation-probe.js')] : []),
        ],
        env: {
          ...common,
          ...npmStartEnv,
          ...kickEnv,
          JWT_PRIVATE_KEY: options.keys.jwtPrivateKeyPem,
          PORT: String(gatewayPort),
          HOST: '127.0.0.1',
          AUTH_PORT: '0',
          COMMANDS_PORT: '0',
          KICK_LINK_PORT: '0',
          BOT_RUNNER_PORT: '0',
          GAMES_PORT: '0',
          REALTIME_PORT: '0',
          KICK_SANDBOX_PORT: '0',
          SUPER_ADMIN_EMAIL: 'bench-admin@bench.example',
          SUPER_ADMIN_PASSWORD: 'Bench-admin-1!',
          // the owner thread's metrics, scraped around each window (chat-load.ts: where the reply's time goes)
          METRICS_PORT: String(metricsPort),
          ...(options.allocationProfile
            ? {
                ALLOCATION_PROFILE_DIR: options.allocationProfile.dir,
                ALLOCATION_PROFILE_KIND: options.allocationProfile.kind,
              }
            : {}),
          ...passedThrough(),
        },
      });
      started.push(single);
      kickstand.push(single);
      await waitReady(`${gatewayUrl}/readyz`, [sandbox, single]);
      Object.assign(servicePorts, await portsFromLog(single.logFile));
    } else {
      if (!options.kafkaBrokers || !options.mongoUrl)
        throw new Error('distributed mode needs KAFKA_BROKERS and MONGO_URL');
      const engines = {
        KAFKA_BROKERS: options.kafkaBrokers,
        MONGO_URL: options.mongoUrl,
        KAFKA_TOPIC_PREFIX: options.topicPrefix ?? '',
        MONGO_DB_PREFIX: options.mongoDbPrefix ?? 'kickstand-bench-',
      };
      const parts = ['auth', 'commands', 'kick-link', 'bot-runner', 'games', 'realtime'] as const;
      const ports = Object.fromEntries(
        await Promise.all(parts.map(async (part) => [part, await freePort()])),
      ) as Record<(typeof parts)[number], number>;
      for (const part of parts) {
        const env: NodeJS.ProcessEnv = {
          ...common,
          ...engines,
          PORT: String(ports[part]),
          INSTANCE_ID: `bench-${part}-1`,
          ...(part === 'kick-link' ? kickEnv : {}),
        };
        if (part === 'auth') {
          delete env.JWT_PUBLIC_KEY;
          env.JWT_PRIVATE_KEY = options.keys.jwtPrivateKeyPem;
          env.SUPER_ADMIN_EMAIL = 'bench-admin@bench.example';
          env.SUPER_ADMIN_PASSWORD = 'Bench-admin-1!';
        }
        const running = startProcess({
          name: part,
          entry: 'scripts/run-service.js',
          args: [part],
          logDir,
          port: ports[part],
          nodeFlags: options.nodeFlags,
          env,
        });
        started.push(running);
        kickstand.push(running);
        servicePorts[part] = ports[part];
      }
      const gateway = startProcess({
        name: 'gateway',
        entry: 'scripts/run-service.js',
        args: ['gateway'],
        logDir,
        port: gatewayPort,
        nodeFlags: options.nodeFlags,
        env: {
          ...common,
          ...engines,
          PORT: String(gatewayPort),
          INSTANCE_ID: 'bench-gateway-1',
          ...Object.fromEntries(
            parts.map((part) => [`${part.toUpperCase().replace('-', '_')}_URL`, `http://127.0.0.1:${ports[part]}`]),
          ),
        },
      });
      started.push(gateway);
      kickstand.push(gateway);
      for (const p of kickstand) await waitReady(`http://127.0.0.1:${p.port}/readyz`, [sandbox, ...kickstand]);
    }

    if (options.isEchoOn === false) {
      // Kick echoes the bot's lines back as chat.message.sent; without the echo the sandbox drops them unsigned
      await fetch(`${sandboxUrl}/sandbox/api/faults`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ drop: 1, onlyEventTypes: ['chat.message.sent'] }),
      });
    }

    async function crash(name: string): Promise<void> {
      const index = kickstand.findIndex((p) => p.name === name);
      const victim = kickstand[index];
      if (!victim) throw new Error(`no process named ${name}`);
      if (victim.child.exitCode === null && victim.child.signalCode === null) {
        const exited = new Promise<void>((resolve) => victim.child.once('exit', () => resolve()));
        victim.child.kill('SIGKILL');
        await exited;
      }
      const again = startProcess(victim.options);
      kickstand[index] = again;
      started[started.indexOf(victim)] = again;
      await waitReady(`http://127.0.0.1:${again.port}/healthz`, [again]);
    }

    return {
      mode: options.mode,
      gatewayUrl,
      gatewayPort,
      sandboxUrl,
      kickstand,
      servicePorts,
      sandbox,
      ...(metricsUrl ? { metricsUrl } : {}),
      crash,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
