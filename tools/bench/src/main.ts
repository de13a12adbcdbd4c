import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { createTokenSigner } from '@kickstand/platform/auth';
import { readAllocationProfile, summariseAllocations } from './allocation-profile';
import { runChatPhase, type PhaseResult, type PhaseSettings } from './chat-load';
import { startDashboards, type DashboardsHandle } from './dashboards-client';
import {
  kickstandRoot,
  passedThrough,
  repoRoot,
  startDeployment,
  type BenchKeys,
  type Deployment,
  type DeploymentOptions,
} from './deployment';
import { benchDataRoot, fileStamp } from './bench-data';
import { useEngines, type Engines } from './engines';
import { parseOptions, type BenchOptions } from './options';
import {
  dashboardsProcessName,
  generatorProcessName,
  memory,
  sandboxProcessName,
  type WatchedProcess,
} from './process-stats';
import { checkTargets, formatPhase, formatTargets } from './report';
import { checkBots, setUpChannels, waitForBots } from './setup';
import type { BenchChannel } from './workload';

/**
 * `npm run bench` (single-machine mode), `npm run bench:distributed`, `npm run bench:step`: see
 * README.md. Prepares C channels once (cached under tools/bench/data/prepared), starts Kickstand
 * and the Kick sandbox as separate processes, runs the phases, prints the figures and writes them
 * as JSON under tools/bench/data/results.
 */

const log = (line: string) => console.log(line);

async function loadOrMakeKeys(): Promise<BenchKeys> {
  const file = path.join(benchDataRoot, 'keys.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as BenchKeys;
  const pair = () =>
    generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
  const jwt = pair();
  const keys: BenchKeys = {
    jwtPrivateKeyPem: jwt.privateKey,
    jwtPublicKeyPem: jwt.publicKey,
    // Kick's webhook key is RSA-2048 as well (kick-api.md §7)
    signingKeyPem: pair().privateKey,
    tokenEncryptionKey: randomBytes(32).toString('base64'),
  };
  await mkdir(benchDataRoot, { recursive: true });
  await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}

interface Prepared {
  dir: string;
  channels: BenchChannel[];
  /** Distributed mode: the prefixes the channels live under on the engines. */
  topicPrefix?: string;
  mongoDbPrefix?: string;
  kafkaBrokers?: string;
  mongoUrl?: string;
}

function tokenMinter(keys: BenchKeys): (channel: BenchChannel) => string {
  const signer = createTokenSigner(keys.jwtPrivateKeyPem, { expiresInSeconds: 6 * 3600 });
  const cache = new Map<string, string>();
  return (channel) => {
    let token = cache.get(channel.userId);
    if (!token) {
      token = signer.sign({ userId: channel.userId, username: channel.username, role: 'USER' });
      cache.set(channel.userId, token);
    }
    return token;
  };
}

/** Sets C channels up on a fresh deployment and keeps the result (data folders, or engine prefixes). */
async function prepare(
  options: BenchOptions,
  keys: BenchKeys,
  dir: string,
  engines: Engines | undefined,
): Promise<Prepared> {
  const building = `${dir}.tmp`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  const prefixes =
    options.mode === 'distributed'
      ? { topicPrefix: `bench${Date.now().toString(36)}.`, mongoDbPrefix: `bench${Date.now().toString(36)}-` }
      : {};
  log(`setting up ${options.channels} channels (${options.commandsPerChannel} commands each) through the gateway…`);
  const deployment = await startDeployment({
    mode: options.mode,
    runDir: building,
    keys,
    kickstandDataDir: path.join(building, 'kickstand'),
    sandboxDataDir: path.join(building, 'sandbox'),
    kafkaBrokers: engines?.kafkaBrokers,
    mongoUrl: engines?.mongoUrl,
    ...prefixes,
  });
  let channels: BenchChannel[];
  try {
    channels = await setUpChannels({
      gatewayUrl: deployment.gatewayUrl,
      sandboxUrl: deployment.sandboxUrl,
      count: options.channels,
      commandsPerChannel: options.commandsPerChannel,
      parallelism: 16,
      progress: log,
    });
    const problems = await waitForBots(deployment.gatewayUrl, channels, tokenMinter(keys), 60_000);
    if (problems.length > 0) {
      throw new Error(
        `${problems.length} bots are not ready a minute after the set-up (logs: ${path.relative(repoRoot, building)}/logs):\n  ${problems.slice(0, 5).join('\n  ')}`,
      );
    }
  } finally {
    await deployment.stop();
  }
  const prepared: Prepared = {
    dir,
    channels,
    ...prefixes,
    ...(engines ? { kafkaBrokers: engines.kafkaBrokers, mongoUrl: engines.mongoUrl } : {}),
  };
  // the set-up's logs stay with the prepared channels, for a look when something went wrong
  await rename(path.join(building, 'logs'), path.join(building, 'setup-logs'));
  await writeFile(path.join(building, 'prepared.json'), JSON.stringify(prepared, null, 1));
  await rm(dir, { recursive: true, force: true });
  await rename(building, dir);
  return prepared;
}

async function loadPrepared(dir: string): Promise<Prepared | undefined> {
  const file = path.join(dir, 'prepared.json');
  if (!existsSync(file)) return undefined;
  return { ...(JSON.parse(await readFile(file, 'utf8')) as Prepared), dir };
}

async function startForRun(
  options: BenchOptions,
  keys: BenchKeys,
  prepared: Prepared,
  runDir: string,
  engines: Engines | undefined,
): Promise<Deployment> {
  const common: Omit<DeploymentOptions, 'kickstandDataDir' | 'sandboxDataDir'> = {
    mode: options.mode,
    runDir,
    keys,
    logLevel: options.logLevel,
    isEchoOn: options.isEchoOn,
    nodeFlags: [
      ...options.nodeFlags,
      ...(options.isCpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(runDir, 'profiles')}`] : []),
    ],
    sandboxNodeFlags: options.sandboxNodeFlags,
    allocationProfile: options.allocationProfile
      ? { dir: path.join(runDir, 'profiles'), kind: options.allocationProfile }
      : undefined,
  };
  if (options.allocationProfile) await mkdir(path.join(runDir, 'profiles'), { recursive: true });
  if (options.mode === 'single') {
    // every run starts from the same prepared state: a copy of the data folders
    await cp(path.join(prepared.dir, 'kickstand'), path.join(runDir, 'kickstand'), { recursive: true });
    await cp(path.join(prepared.dir, 'sandbox'), path.join(runDir, 'sandbox'), { recursive: true });
    return startDeployment({
      ...common,
      kickstandDataDir: path.join(runDir, 'kickstand'),
      sandboxDataDir: path.join(runDir, 'sandbox'),
    });
  }
  // distributed: the channels live on the engines under the prepared prefixes; the sandbox's folder goes with them
  return startDeployment({
    ...common,
    kickstandDataDir: path.join(runDir, 'kickstand'),
    sandboxDataDir: path.join(prepared.dir, 'sandbox'),
    kafkaBrokers: engines?.kafkaBrokers,
    mongoUrl: engines?.mongoUrl,
    topicPrefix: prepared.topicPrefix,
    mongoDbPrefix: prepared.mongoDbPrefix,
  });
}

function environment(): Record<string, unknown> {
  const git = (args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  };
  return {
    node: process.version,
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    loadAverageBefore: loadavg().map((value) => Number(value.toFixed(2))),
    commit: git(['rev-parse', '--short', 'HEAD']),
    changedFiles: git(['status', '--porcelain']).split('\n').filter(Boolean).length,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const keys = await loadOrMakeKeys();
  const env = environment();
  log(
    `Kickstand bench: ${options.mode} mode${options.isStep ? ', step mode' : ''} on ${env.cores} cores (${env.cpu}), load average ${(env.loadAverageBefore as number[]).join(' ')}`,
  );

  const engines = options.mode === 'distributed' ? await useEngines(log) : undefined;
  const runDir = path.join(benchDataRoot, 'runs', `${fileStamp()}-${options.mode}`);
  await mkdir(runDir, { recursive: true });
  let deployment: Deployment | undefined;
  let dashboards: DashboardsHandle | undefined;
  // Ctrl-C: stop what the bench started, then leave
  const interrupted = (signal: NodeJS.Signals) => {
    log(`\n${signal}: stopping what the bench started…`);
    void (async () => {
      await dashboards?.close().catch(() => undefined);
      await deployment?.stop().catch(() => undefined);
      await engines?.stop().catch(() => undefined);
      process.exit(130);
    })();
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const preparedDir = path.join(
      benchDataRoot,
      'prepared',
      `${options.mode}-c${options.channels}-k${options.commandsPerChannel}`,
    );
    let prepared = options.isFresh ? undefined : await loadPrepared(preparedDir);
    if (
      prepared &&
      engines &&
      (prepared.kafkaBrokers !== engines.kafkaBrokers || prepared.mongoUrl !== engines.mongoUrl)
    ) {
      prepared = undefined; // prepared on other engines
    }
    prepared ??= await prepare(options, keys, preparedDir, engines);
    const tokenOf = tokenMinter(keys);

    log(
      `starting the Kick sandbox and Kickstand (${options.mode}); logs under ${path.relative(repoRoot, runDir)}/logs`,
    );
    deployment = await startForRun(options, keys, prepared, runDir, engines);
    let problems = await checkBots(deployment.gatewayUrl, prepared.channels, tokenOf, 20);
    if (problems.length > 0 && options.mode === 'distributed') {
      // the engines lost the prepared channels (purged, or another prefix): set them up again
      log(`the prepared channels are not there any more (${problems[0]}): setting them up again`);
      await deployment.stop();
      prepared = await prepare(options, keys, preparedDir, engines);
      deployment = await startForRun(options, keys, prepared, runDir, engines);
      problems = await checkBots(deployment.gatewayUrl, prepared.channels, tokenOf, 20);
    }
    if (problems.length > 0) throw new Error(`bots not running after start:\n  ${problems.slice(0, 5).join('\n  ')}`);
    const channels = prepared.channels;

    const kickstandPids = deployment.kickstand.map((p) => ({ name: p.name, pid: p.pid }));
    const watched: WatchedProcess[] = [
      ...kickstandPids,
      { name: sandboxProcessName, pid: deployment.sandbox.pid },
      { name: generatorProcessName, pid: process.pid },
      ...(engines?.processes ?? []),
    ];
    const phase = (
      name: string,
      rate: number,
      seed: number,
      durationSeconds = options.durationSeconds,
    ): PhaseSettings => ({
      name,
      rate,
      durationSeconds,
      warmupSeconds: options.warmupSeconds,
      commandShare: options.commandShare,
      seed,
      connections: options.connections,
      isDirect: options.isDirect,
      timelineBinSeconds: options.timelineBinSeconds,
    });
    // --alloc-prof: the probe in Kickstand samples from each window's start to its end (SIGUSR2 at both)
    const owner = deployment.kickstand[0];
    let profiledWindows = 0;
    const tellProbe = () => {
      try {
        if (owner) process.kill(owner.pid, 'SIGUSR2');
      } catch {
        // Kickstand is gone: the phase reports it, and no profile comes
      }
    };
    const profileKind = options.allocationProfile;
    const onWindow = profileKind ? { start: tellProbe, end: tellProbe } : undefined;
    const run = async (settings: PhaseSettings, extra: Partial<Parameters<typeof runChatPhase>[0]> = {}) => {
      log(`\n== ${settings.name}: ${settings.rate} msg/s`);
      const result = await runChatPhase({
        deployment: deployment as Deployment,
        channels,
        signingKeyPem: keys.signingKeyPem,
        settings,
        watched,
        progress: log,
        onWindow,
        ...extra,
      });
      // a phase that never reached its window (nothing measured) sent the probe nothing
      if (profileKind && result.sent > 0) {
        const file = path.join(runDir, 'profiles', `window-${++profiledWindows}.heapprofile`);
        const summary = summariseAllocations(await readAllocationProfile(file), result.sent);
        result.ownerAllocations = { kind: profileKind, ...summary };
      }
      return result;
    };

    const results: PhaseResult[] = [];
    let stepSummary: Record<string, unknown> | undefined;
    if (options.isStep) {
      let highest: PhaseResult | undefined;
      let firstBroken: { result: PhaseResult; reasons: string[] } | undefined;
      for (
        let rate = options.step.start, seed = 100;
        rate <= options.step.max;
        rate += options.step.increment, seed++
      ) {
        const result = await run(phase(`step ${rate}/s`, rate, seed, options.step.seconds));
        results.push(result);
        log(formatPhase(result));
        const reasons: string[] = [];
        if (result.errors.total > 0) reasons.push(`${result.errors.total} errors`);
        if (result.achievedRate < 0.97 * rate) reasons.push(`achieved only ${result.achievedRate}/s`);
        if (result.ackLatencyMs.p99 > options.step.maxAckP99Ms)
          reasons.push(`ack p99 ${result.ackLatencyMs.p99} ms > ${options.step.maxAckP99Ms} ms`);
        if (!(result.replies.latencyMs.p99 <= options.step.maxReplyP99Ms)) {
          reasons.push(`reply p99 ${result.replies.latencyMs.p99} ms > ${options.step.maxReplyP99Ms} ms`);
        }
        if (reasons.length > 0) {
          firstBroken = { result, reasons };
          log(`  → broken at ${rate}/s: ${reasons.join('; ')}`);
          break;
        }
        highest = result;
        log(`  → sustained ${rate}/s`);
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
      stepSummary = {
        highestSustainedRate: highest?.targetRate ?? 0,
        highestSustainedAchieved: highest?.achievedRate ?? 0,
        brokenAt: firstBroken?.result.targetRate ?? null,
        brokenBecause: firstBroken?.reasons ?? [],
        criteria: {
          errors: 0,
          achievedAtLeast: '97 % of the target',
          maxAckP99Ms: options.step.maxAckP99Ms,
          maxReplyP99Ms: options.step.maxReplyP99Ms,
        },
      };
      log(
        `\nhighest sustained rate: ${String(stepSummary.highestSustainedRate)}/s${firstBroken ? ` (broke at ${firstBroken.result.targetRate}/s: ${firstBroken.reasons.join('; ')})` : ''}`,
      );
    } else {
      if (options.phases.includes('latency')) {
        const result = await run(phase('latency', options.latencyRate, 1));
        results.push(result);
        log(formatPhase(result));
      }
      if (options.phases.includes('throughput')) {
        const result = await run(phase('throughput', options.throughputRate, 2));
        results.push(result);
        log(formatPhase(result));
      }
      if (options.phases.includes('dashboards')) {
        log(`\nconnecting ${options.dashboards} dashboards (socket.io through the gateway)…`);
        const sessions = Array.from({ length: options.dashboards }, (_, i) => {
          const channel = channels[i % channels.length] as BenchChannel;
          return { userId: channel.userId, token: tokenOf(channel) };
        });
        const perChannel = channels.map((_, c) => sessions.filter((_, i) => i % channels.length === c).length);
        dashboards = await startDashboards({ gatewayUrl: deployment.gatewayUrl, sessions, parallelism: 50 });
        log(`  ${dashboards.connected} connected, ${dashboards.failed} refused`);
        const result = await run(phase('dashboards', options.dashboardRate, 3), {
          dashboards,
          dashboardsPerChannel: perChannel,
          watched: [...watched, { name: dashboardsProcessName(dashboards.connected), pid: dashboards.pid }],
        });
        results.push(result);
        log(formatPhase(result));
      }
    }

    const peakRssMb = Math.max(...deployment.kickstand.map((p) => memory(p.pid)?.peakRssMb ?? Number.NaN));
    const targets = options.isStep ? [] : checkTargets(options.mode, results, peakRssMb);
    if (targets.length > 0) log(`\ntargets (issue 10, this machine):\n${formatTargets(targets)}`);
    const report = {
      mode: options.mode,
      startedAt: new Date().toISOString(),
      environment: env,
      options,
      conditions: {
        sandbox: 'Kick sandbox in its own process (embedded store), RSA-2048 signing key shared with the generator',
        echo: options.isEchoOn
          ? "the sandbox echoes the bot's lines back as chat.message.sent, as Kick does"
          : 'no echo',
        kickstandLogLevel: options.logLevel,
        kickstandRoot,
        // the settings of the bench's environment single-machine Kickstand was given (unset: its defaults)
        kickstandSettings: options.mode === 'single' ? passedThrough() : {},
        engines: engines ? { kafkaBrokers: engines.kafkaBrokers, mongoUrl: engines.mongoUrl } : undefined,
      },
      peakRssMb: Number(peakRssMb.toFixed(1)),
      targets,
      step: stepSummary,
      phases: results,
    };
    const resultsDir = path.join(benchDataRoot, 'results');
    await mkdir(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `${fileStamp()}-${options.mode}${options.isStep ? '-step' : ''}.json`);
    await writeFile(file, JSON.stringify(report, null, 2));
    if (options.out) await writeFile(path.resolve(options.out), JSON.stringify(report, null, 2));
    log(`\nJSON report: ${path.relative(repoRoot, file)}${options.out ? ` and ${options.out}` : ''}`);
  } finally {
    await dashboards?.close();
    await deployment?.stop();
    await engines?.stop();
    if (options.mode === 'single' && !options.isCpuProfile) {
      // the copied data folders; logs stay for a look
      await rm(path.join(runDir, 'kickstand'), { recursive: true, force: true });
      await rm(path.join(runDir, 'sandbox'), { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
