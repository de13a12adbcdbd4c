import { execSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createTokenSigner } from '@kickstand/platform/auth';
import { benchDataRoot, fileStamp } from './bench-data';
import { runChatPhase, type PhaseResult } from './chat-load';
import { repoRoot, startDeployment, type BenchKeys, type Deployment } from './deployment';
import { useEngines } from './engines';
import { setUpChannels, waitForBots } from './setup';
import type { BenchChannel } from './workload';

/**
 * `npm run drill`: issue 16's proof that the webhook door loses nothing. Distributed mode on Kafka
 * and MongoDB (KAFKA_BROKERS and MONGO_URL, or the local engines it starts, as the bench does),
 * chat deliveries at a steady rate, and under that load:
 *
 *   +15 s  kick-link SIGKILLed, started again at once
 *   +35 s  the gateway SIGKILLed, started again at once
 *   +55 s  Kafka stopped for 30 s (SIGSTOP / SIGCONT of the local broker the drill started; or the
 *          shell commands in DRILL_KAFKA_STOP and DRILL_KAFKA_START, e.g. `docker compose pause kafka`)
 *
 * Like real Kick, the generator never sends a delivery again. A delivery answered 2xx is one Kick
 * counts as delivered: each such command must get exactly one reply at the sandbox. Deliveries not
 * answered 2xx (refused connections while a process is down, 502 from the gateway, 503) are
 * reported, not counted as lost: Kick saw them fail. Exit code 0 only with 0 lost and 0 duplicated.
 *
 * DRILL_RATE (20 a second), DRILL_SECONDS (110) and DRILL_CHANNELS (20) change the load;
 * DRILL_LOG_LEVEL (warn) Kickstand's log level, to follow a lost command through the logs.
 */

const log = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const numberFromEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

function freshKeys(): BenchKeys {
  const pair = () =>
    generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
  const jwt = pair();
  return {
    jwtPrivateKeyPem: jwt.privateKey,
    jwtPublicKeyPem: jwt.publicKey,
    signingKeyPem: pair().privateKey,
    tokenEncryptionKey: randomBytes(32).toString('base64'),
  };
}

interface KafkaSwitch {
  how: string;
  stop(): void;
  start(): void;
}

function kafkaSwitch(ownKafkaPid: number | undefined): KafkaSwitch | undefined {
  const { DRILL_KAFKA_STOP: stop, DRILL_KAFKA_START: start } = process.env;
  if (stop && start) {
    return {
      how: `${stop} / ${start}`,
      stop: () => execSync(stop, { stdio: 'inherit' }),
      start: () => execSync(start, { stdio: 'inherit' }),
    };
  }
  // only the broker the drill started itself: never someone else's Kafka on this machine
  if (ownKafkaPid === undefined) return undefined;
  return {
    how: `SIGSTOP / SIGCONT of pid ${ownKafkaPid}`,
    stop: () => process.kill(ownKafkaPid, 'SIGSTOP'),
    start: () => process.kill(ownKafkaPid, 'SIGCONT'),
  };
}

/** The disruptions, at their times from the start of the load; resolves once all are done. */
async function disrupt(deployment: Deployment, kafka: KafkaSwitch | undefined, startedAt: number): Promise<string[]> {
  const events: string[] = [];
  const at = async (seconds: number) => sleep(Math.max(0, startedAt + seconds * 1000 - Date.now()));
  const note = (line: string) => {
    const entry = `+${((Date.now() - startedAt) / 1000).toFixed(1)} s ${line}`;
    events.push(entry);
    log(`  drill: ${entry}`);
  };
  await at(15);
  note('SIGKILL kick-link');
  await deployment.crash('kick-link');
  note('kick-link answers again');
  await at(35);
  note('SIGKILL gateway');
  await deployment.crash('gateway');
  note('gateway answers again');
  if (!kafka) {
    note('Kafka stop skipped: the drill did not start Kafka itself and no DRILL_KAFKA_STOP / DRILL_KAFKA_START');
    return events;
  }
  await at(55);
  note(`Kafka stopped (${kafka.how})`);
  kafka.stop();
  try {
    await at(85);
  } finally {
    kafka.start();
    note('Kafka started again');
  }
  return events;
}

function verdict(result: PhaseResult): { lost: number; duplicated: number } {
  return { lost: result.errors.missingReplies, duplicated: result.errors.duplicateReplies };
}

async function main(): Promise<void> {
  const rate = numberFromEnv('DRILL_RATE', 20);
  const seconds = numberFromEnv('DRILL_SECONDS', 110);
  const channelCount = numberFromEnv('DRILL_CHANNELS', 20);
  const keys = freshKeys();
  const engines = await useEngines(log);
  const runId = `drill${Date.now().toString(36)}`;
  const runDir = path.join(benchDataRoot, 'runs', `${fileStamp()}-drill`);
  await mkdir(runDir, { recursive: true });
  let deployment: Deployment | undefined;
  let kafka: KafkaSwitch | undefined;
  let code = 1;
  try {
    log(`drill: starting distributed mode; logs under ${path.relative(repoRoot, runDir)}/logs`);
    const running = await startDeployment({
      mode: 'distributed',
      runDir,
      keys,
      kickstandDataDir: path.join(runDir, 'kickstand'),
      sandboxDataDir: path.join(runDir, 'sandbox'),
      kafkaBrokers: engines.kafkaBrokers,
      mongoUrl: engines.mongoUrl,
      topicPrefix: `${runId}.`,
      mongoDbPrefix: `${runId}-`,
      logLevel: process.env.DRILL_LOG_LEVEL ?? 'warn',
    });
    deployment = running;
    const channels: BenchChannel[] = await setUpChannels({
      gatewayUrl: running.gatewayUrl,
      sandboxUrl: running.sandboxUrl,
      count: channelCount,
      commandsPerChannel: 16,
      parallelism: 8,
      progress: log,
    });
    const signer = createTokenSigner(keys.jwtPrivateKeyPem, { expiresInSeconds: 3600 });
    const problems = await waitForBots(
      running.gatewayUrl,
      channels,
      (channel) => signer.sign({ userId: channel.userId, username: channel.username, role: 'USER' }),
      60_000,
    );
    if (problems.length > 0) throw new Error(`bots not ready: ${problems.slice(0, 5).join('; ')}`);

    kafka = kafkaSwitch(engines.ownKafkaPid);
    log(`drill: ${rate} deliveries a second for ${seconds} s over ${channelCount} channels, disruptions as they come`);
    // the disruptions count from the end of the load's 5 s warm-up
    let loadStarted: (atMs: number) => void = () => undefined;
    const loadStartedAt = new Promise<number>((resolve) => (loadStarted = resolve));
    const [result, events] = await Promise.all([
      runChatPhase({
        deployment: running,
        channels,
        signingKeyPem: keys.signingKeyPem,
        settings: {
          name: 'drill',
          rate,
          durationSeconds: seconds,
          warmupSeconds: 5,
          commandShare: 0.3,
          seed: 16,
          connections: 64,
          replyWaitSeconds: 120,
          replyQuietSeconds: 120,
        },
        watched: [],
        progress: log,
        onStart: (epochMs) => loadStarted(epochMs + 5_000),
      }),
      loadStartedAt.then((startedAt) => disrupt(running, kafka, startedAt)),
    ]);
    const { lost, duplicated } = verdict(result);
    log('');
    log('drill: the webhook door under SIGKILLs and a Kafka stop');
    for (const event of events) log(`  ${event}`);
    log(
      `  deliveries ${result.sent}   answered other than 2xx ${JSON.stringify(result.errors.byStatus)}   no answer ${result.errors.transport}   not sent ${result.errors.notSent}`,
    );
    log(
      `  commands answered 2xx expecting a reply ${result.replies.expected}   replied ${result.replies.received}   LOST ${lost}   DUPLICATED ${duplicated}`,
    );
    log(
      `  reply latency p50 ${result.replies.latencyMs.p50} ms   p99 ${result.replies.latencyMs.p99} ms   max ${result.replies.latencyMs.max} ms`,
    );
    code = lost === 0 && duplicated === 0 ? 0 : 1;
  } finally {
    kafka?.start(); // never leave Kafka stopped
    await deployment?.stop();
    await engines.stop();
  }
  process.exitCode = code;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
