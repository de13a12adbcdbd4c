#!/usr/bin/env node
// `npm run start:distributed`: the gateway, each service and the Kick sandbox as separate
// processes on Kafka (KAFKA_BROKERS) and MongoDB (MONGO_URL, one database per service), exactly as
// the containers run them. `make start-distributed` starts local Kafka and FerretDB first.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { buildIfNeeded, root } = require('./build-if-needed');

const prefix = 'start:distributed';
const { KAFKA_BROKERS, MONGO_URL } = process.env;
if (!KAFKA_BROKERS || !MONGO_URL) {
  console.error(
    `${prefix}: set KAFKA_BROKERS and MONGO_URL, e.g.\n` +
      '  eval "$(bash tools/kafka/up.sh)"; eval "$(bash tools/ferretdb/up.sh)"; npm run start:distributed\n' +
      'or run `make start-distributed`, which starts and stops local engines for you.',
  );
  process.exit(2);
}

buildIfNeeded(prefix);
// Compiled just above: the same key handling as single-machine mode (made once under DATA_DIR/keys).
const { loadOrCreateJwtKeyPair } = require(path.join(root, 'packages/platform/dist/auth/keys.js'));

const basePort = Number(process.env.PORT ?? 3000);
const ports = {
  gateway: basePort,
  auth: basePort + 1,
  commands: basePort + 2,
  'kick-link': basePort + 3,
  'bot-runner': basePort + 4,
  games: basePort + 5,
  realtime: basePort + 6,
  'kick-sandbox': Number(process.env.KICK_SANDBOX_PORT ?? 3100),
};
const gatewayUrl = `http://localhost:${ports.gateway}`;
const sandboxUrl = `http://localhost:${ports['kick-sandbox']}`;
const useSandbox = !process.env.KICK_CLIENT_ID;

function environmentOf(name, keys) {
  const common = {
    ...process.env,
    PORT: String(ports[name]),
    JWT_PUBLIC_KEY: keys.publicKeyPem,
    INSTANCE_ID: `${name}-1`,
  };
  switch (name) {
    case 'auth':
      return { ...common, JWT_PRIVATE_KEY: keys.privateKeyPem };
    case 'gateway':
      return {
        ...common,
        ...Object.fromEntries(
          ['auth', 'commands', 'kick-link', 'bot-runner', 'games', 'realtime'].map((service) => [
            `${service.toUpperCase().replace('-', '_')}_URL`,
            `http://127.0.0.1:${ports[service]}`,
          ]),
        ),
      };
    case 'kick-link':
      return useSandbox
        ? {
            ...common,
            KICK_CLIENT_ID: 'kickstand-local',
            KICK_CLIENT_SECRET: 'kickstand-local-secret',
            KICK_OAUTH_URL: sandboxUrl,
            KICK_API_URL: `${sandboxUrl}/public/v1`,
            KICK_REDIRECT_URI: `${gatewayUrl}/api/kick/oauth/callback`,
          }
        : { ...common, KICK_REDIRECT_URI: process.env.KICK_REDIRECT_URI ?? `${gatewayUrl}/api/kick/oauth/callback` };
    case 'kick-sandbox':
      return {
        ...common,
        KICK_SANDBOX_PUBLIC_URL: sandboxUrl,
        KICK_SANDBOX_REDIRECT_URI: `${gatewayUrl}/api/kick/oauth/callback`,
        KICK_SANDBOX_WEBHOOK_URL: `${gatewayUrl}/api/kick/webhook`,
      };
    default:
      return common;
  }
}

const children = new Map();
let stopping = false;

function start(name, keys) {
  const child = spawn(process.execPath, [path.join(root, 'scripts/run-service.js'), name], {
    cwd: root,
    env: environmentOf(name, keys),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const label = `[${name}]`.padEnd(15);
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) process.stdout.write(`${label}${line}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`${prefix}: ${name} exited (${signal ?? code}); stopping everything`);
      void stopAll(1);
    } else if (children.size === 0) {
      process.exit(process.exitCode ?? 0);
    }
  });
  children.set(name, child);
}

async function stopAll(exitCode) {
  if (stopping) return;
  stopping = true;
  process.exitCode = exitCode;
  for (const child of children.values()) child.kill('SIGTERM');
  // Each service exits within 10 s of SIGTERM by design; anything still here after 12 s is killed.
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
    process.exit(1);
  }, 12_000).unref();
  if (children.size === 0) process.exit(exitCode);
}

async function waitForHealth() {
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${ports.gateway}/api/health`);
      if (response.ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

async function main() {
  const keys = await loadOrCreateJwtKeyPair(path.resolve(root, process.env.DATA_DIR ?? 'data', 'keys'));
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  const parts = ['auth', 'commands', 'kick-link', 'bot-runner', 'games', 'realtime', 'gateway'];
  if (useSandbox) parts.unshift('kick-sandbox');
  for (const name of parts) start(name, keys);
  if (await waitForHealth()) {
    console.log(`\n  Kickstand (distributed: ${parts.length} processes on Kafka ${KAFKA_BROKERS} and ${MONGO_URL})`);
    console.log(`  is running: open ${gatewayUrl}`);
    if (useSandbox) console.log(`  Kick: the local sandbox at ${sandboxUrl}/sandbox`);
    console.log('  (Ctrl-C stops it)\n');
  } else if (!stopping) {
    console.error(`${prefix}: /api/health did not answer within a minute`);
    void stopAll(1);
  }
}

void main();
