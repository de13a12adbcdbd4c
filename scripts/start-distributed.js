#!/usr/bin/env node
// `npm run start:distributed`: the gateway, each service and the Kick sandbox as separate
// processes on Kafka (KAFKA_BROKERS) and MongoDB (MONGO_URL, one database per service), exactly as
// the containers run them. `make start-distributed` starts local Kafka and SecantusDB first.
//
//   node scripts/start-distributed.js [--no-build]
//
// Ports: the gateway on PORT (3000), auth … realtime on PORT+1 … PORT+6 (as in single-machine
// mode), the sandbox on KICK_SANDBOX_PORT (3100). BOT_RUNNER_INSTANCES=n (1) runs n bot-runner
// processes: the first on PORT+4 (the gateway's BOT_RUNNER_URL), the others on PORT+10, PORT+11, …,
// each with its own INSTANCE_ID. The parts are supervised (scripts/supervisor.js): one that crashes
// or is killed is restarted with backoff (1 s, 2 s, 4 s … 30 s) while the rest keep running; one
// stopped with `kill -TERM <its pid>` (exit 0) stays stopped, e.g. a graceful bot-runner scale-in.
// Ctrl-C or SIGTERM stops them all. Kafka's consumer timings are the code's defaults unless
// KAFKA_SESSION_TIMEOUT_MS & co. are set (docs/distributed.md). JWT_PRIVATE_KEY + JWT_PUBLIC_KEY are
// used when both are set, else a pair is made once under DATA_DIR/keys. --no-build skips the
// incremental build (dist must exist).
const fs = require('node:fs');
const path = require('node:path');
const { createSupervisor, stopOnSignals } = require('./supervisor');

const root = path.resolve(__dirname, '..');
const prefix = 'start:distributed';
const { KAFKA_BROKERS, MONGO_URL } = process.env;
if (!KAFKA_BROKERS || !MONGO_URL) {
  console.error(
    `${prefix}: set KAFKA_BROKERS and MONGO_URL, e.g.\n` +
      '  eval "$(bash tools/kafka/up.sh)"; eval "$(bash tools/secantus/up.sh)"; npm run start:distributed\n' +
      'or run `make start-distributed`, which starts and stops local engines for you.',
  );
  process.exit(2);
}

const botRunnerInstances = Number(process.env.BOT_RUNNER_INSTANCES ?? 1);
if (!Number.isInteger(botRunnerInstances) || botRunnerInstances < 1 || botRunnerInstances > 20) {
  console.error(
    `${prefix}: BOT_RUNNER_INSTANCES must be a whole number from 1 to 20 (got "${process.env.BOT_RUNNER_INSTANCES}")`,
  );
  process.exit(2);
}

if (!process.argv.includes('--no-build')) {
  require('./build-if-needed').buildIfNeeded(prefix);
} else if (!fs.existsSync(path.join(root, 'packages/platform/dist/auth/keys.js'))) {
  console.error(`${prefix}: --no-build, but nothing is compiled yet: run \`npx tsc -b\` first`);
  process.exit(2);
}
// Compiled by now: the same key handling as single-machine mode (made once under DATA_DIR/keys).
const { loadOrCreateJwtKeyPair } = require(path.join(root, 'packages/platform/dist/auth/keys.js'));

const basePort = Number(process.env.PORT ?? 3000);
const servicePorts = {
  gateway: basePort,
  auth: basePort + 1,
  commands: basePort + 2,
  'kick-link': basePort + 3,
  'bot-runner': basePort + 4,
  games: basePort + 5,
  realtime: basePort + 6,
  'kick-sandbox': Number(process.env.KICK_SANDBOX_PORT ?? 3100),
};
const upstreamServices = ['auth', 'commands', 'kick-link', 'bot-runner', 'games', 'realtime'];
const gatewayUrl = `http://localhost:${servicePorts.gateway}`;
const sandboxUrl = `http://localhost:${servicePorts['kick-sandbox']}`;
const useSandbox = !process.env.KICK_CLIENT_ID;

/** One process to run: the part (its run-service.js name), its label, port and instance number. */
function processesToRun() {
  const list = [];
  if (useSandbox) list.push({ part: 'kick-sandbox', instance: 1, port: servicePorts['kick-sandbox'] });
  for (const part of ['auth', 'commands', 'kick-link', 'games', 'realtime']) {
    list.push({ part, instance: 1, port: servicePorts[part] });
  }
  for (let instance = 1; instance <= botRunnerInstances; instance++) {
    const port = instance === 1 ? servicePorts['bot-runner'] : basePort + 10 + (instance - 2);
    list.push({ part: 'bot-runner', instance, port });
  }
  list.push({ part: 'gateway', instance: 1, port: servicePorts.gateway });
  return list.map((entry) => ({
    ...entry,
    label: entry.part === 'bot-runner' && botRunnerInstances > 1 ? `bot-runner-${entry.instance}` : entry.part,
  }));
}

function environmentOf({ part, instance, port }, keys) {
  const common = {
    ...process.env,
    PORT: String(port),
    JWT_PUBLIC_KEY: keys.publicKeyPem,
    INSTANCE_ID: `${part}-${instance}`,
    // Readable lines when a person watches; the children's stdout is a pipe, so they cannot tell.
    LOG_FORMAT: process.env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
  };
  // METRICS_PORT on one host: the gateway's, and each other part's as far from it as its port is from PORT.
  if (process.env.METRICS_PORT) common.METRICS_PORT = String(Number(process.env.METRICS_PORT) + port - basePort);
  // Only auth signs tokens: no other process gets the private key.
  delete common.JWT_PRIVATE_KEY;
  delete common.BOT_RUNNER_INSTANCES;
  switch (part) {
    case 'auth':
      // auth derives its public key from the private one
      delete common.JWT_PUBLIC_KEY;
      return { ...common, JWT_PRIVATE_KEY: keys.privateKeyPem };
    case 'gateway':
      return {
        ...common,
        ...Object.fromEntries(
          upstreamServices.map((service) => [
            `${service.toUpperCase().replace('-', '_')}_URL`,
            `http://127.0.0.1:${servicePorts[service]}`,
          ]),
        ),
      };
    case 'kick-link':
      return useSandbox
        ? {
            ...common,
            KICK_CLIENT_ID: process.env.KICK_SANDBOX_CLIENT_ID ?? 'kickstand-local',
            KICK_CLIENT_SECRET: process.env.KICK_SANDBOX_CLIENT_SECRET ?? 'kickstand-local-secret',
            KICK_OAUTH_URL: sandboxUrl,
            KICK_API_URL: `${sandboxUrl}/public/v1`,
            KICK_REDIRECT_URI: `${gatewayUrl}/api/kick/oauth/callback`,
            // the sandbox's bot account: lets kick-link recognise the bot's own lines for certain
            KICK_BOT_USERNAME: process.env.KICK_BOT_USERNAME ?? 'kickstand_app',
          }
        : { ...common, KICK_REDIRECT_URI: process.env.KICK_REDIRECT_URI ?? `${gatewayUrl}/api/kick/oauth/callback` };
    case 'kick-sandbox': {
      // The sandbox stands in for Kick, which is not ours: its state stays on disk under
      // DATA_DIR/kick-sandbox rather than in the product's MongoDB (where its unindexed
      // chat and delivery queries would slow down as the test traffic piles up).
      const { MONGO_URL: _notForTheSandbox, ...sandboxEnv } = common;
      return {
        ...sandboxEnv,
        KICK_SANDBOX_PUBLIC_URL: sandboxUrl,
        KICK_SANDBOX_REDIRECT_URI: `${gatewayUrl}/api/kick/oauth/callback`,
        KICK_SANDBOX_WEBHOOK_URL: `${gatewayUrl}/api/kick/webhook`,
      };
    }
    default:
      return common;
  }
}

const log = (line) => console.log(`${prefix}: ${line}`);
const supervisor = createSupervisor({
  log,
  output: (label, line) => process.stdout.write(`${`[${label}]`.padEnd(15)}${line}\n`),
  onIdle: () => {
    log('every process has stopped');
    process.exit(0);
  },
});
let isStopping = false;

function start(entry, keys) {
  supervisor.start({
    name: entry.label,
    command: process.execPath,
    args: [path.join(root, 'scripts/run-service.js'), entry.part],
    cwd: root,
    env: environmentOf(entry, keys),
    detail: `port ${entry.port}`,
  });
}

async function waitForHealth() {
  for (let attempt = 0; attempt < 240 && !isStopping; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${servicePorts.gateway}/api/health`);
      if (response.ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

async function jwtKeys() {
  const { JWT_PRIVATE_KEY, JWT_PUBLIC_KEY } = process.env;
  if (JWT_PRIVATE_KEY && JWT_PUBLIC_KEY) return { privateKeyPem: JWT_PRIVATE_KEY, publicKeyPem: JWT_PUBLIC_KEY };
  return loadOrCreateJwtKeyPair(path.resolve(root, process.env.DATA_DIR ?? 'data', 'keys'));
}

async function main() {
  const keys = await jwtKeys();
  stopOnSignals(supervisor, log);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (isStopping = true));
  const list = processesToRun();
  for (const entry of list) start(entry, keys);
  if (await waitForHealth()) {
    console.log(`\n  Kickstand (distributed: ${list.length} processes on Kafka ${KAFKA_BROKERS} and ${MONGO_URL})`);
    console.log(`  is running: open ${gatewayUrl}`);
    if (useSandbox) console.log(`  Kick: the local sandbox at ${sandboxUrl}/sandbox`);
    console.log('  (Ctrl-C stops it)\n');
    console.log(`${prefix}: ready`);
  } else if (!isStopping) {
    console.error(`${prefix}: /api/health did not answer within two minutes; stopping every process`);
    isStopping = true;
    void supervisor.stop().then(() => process.exit(1));
  }
}

void main();
