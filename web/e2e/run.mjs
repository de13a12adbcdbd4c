/* global console, process, fetch, setTimeout */
// End-to-end run against the real product in single-machine mode, in the system's Chromium:
//   npm run test:e2e            (from the repo root; or: node web/e2e/run.mjs)
// It builds the web app, then runs two passes, each against its own `node scripts/start.js` on free
// ports with a temporary DATA_DIR: the scenarios with the sandbox following Kick's documentation,
// then the streamer's journey with the sandbox behaving like real Kick (KICK_SANDBOX_REAL_KICK=1).
// Each waits for /api/health, runs its scenarios (scenarios.mjs), writes screenshots to
// web/e2e-artifacts/<pass>/ and the server log to web/e2e-artifacts/server*.log, and stops the
// product with SIGINT. Not part of `npm test`.
// Environment: CHROMIUM_PATH (default /usr/bin/chromium), E2E_ONLY=<substring> to run some scenarios.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { browserUiScenarios } from './browser-ui-scenarios.mjs';
import { teamScenarios } from './team-scenarios.mjs';
import { timerScenarios } from './timer-scenarios.mjs';
import { eventMessageScenarios } from './event-messages-scenarios.mjs';
import { moderationScenarios } from './moderation-scenarios.mjs';
import { realKickScenarios, scenarios } from './scenarios.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const artifacts = path.resolve(here, '..', 'e2e-artifacts');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const startTimeoutMs = 240_000;

async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForHealth(url, child) {
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the product exited early (code ${child.exitCode}); see server.log`);
    try {
      const response = await fetch(url);
      if (response.ok) return await response.json();
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error(`${url} did not answer 200 within ${startTimeoutMs / 1000} s`);
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  const timedOut = await Promise.race([exited.then(() => false), sleep(20_000).then(() => true)]);
  if (timedOut) {
    console.warn('e2e: the product did not stop within 20 s of SIGINT; sending SIGKILL');
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * The passes, each against its own start of the product with a fresh DATA_DIR: the documented Kick
 * the sandbox follows by default, then the streamer's journey again with the sandbox behaving like
 * real Kick (KICK_SANDBOX_REAL_KICK=1).
 */
const passes = [
  {
    name: 'documented Kick',
    logFile: 'server.log',
    // a timer minute lasts 1 s (sandbox only; refused in production): timer-scenarios.mjs
    env: { TIMER_MINUTE_MS: '1000' },
    scenarios: [
      ...scenarios,
      ...browserUiScenarios,
      ...timerScenarios,
      ...eventMessageScenarios,
      ...moderationScenarios,
      ...teamScenarios,
    ],
  },
  {
    name: 'real Kick',
    logFile: 'server-real-kick.log',
    env: { KICK_SANDBOX_REAL_KICK: '1' },
    scenarios: realKickScenarios,
  },
];

/** Starts Kickstand on free ports with a temporary DATA_DIR; answers what the scenarios need to reach it. */
async function startProduct(pass) {
  const ports = { gateway: await freePort(), sandbox: await freePort() };
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kickstand-e2e-'));
  const baseUrl = `http://localhost:${ports.gateway}`;
  const sandboxUrl = `http://localhost:${ports.sandbox}`;
  const log = createWriteStream(path.join(artifacts, pass.logFile));

  console.log(`e2e: starting Kickstand on ${baseUrl} (sandbox ${sandboxUrl}, DATA_DIR ${dataDir})…`);
  const child = spawn(process.execPath, ['scripts/start.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(ports.gateway),
      KICK_SANDBOX_PORT: String(ports.sandbox),
      // every other service on any free port
      AUTH_PORT: '0',
      COMMANDS_PORT: '0',
      KICK_LINK_PORT: '0',
      BOT_RUNNER_PORT: '0',
      GAMES_PORT: '0',
      REALTIME_PORT: '0',
      DATA_DIR: dataDir,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      ...pass.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const product = {
    ports,
    dataDir,
    baseUrl,
    sandboxUrl,
    async stop() {
      console.log('e2e: stopping Kickstand (SIGINT)…');
      await stop(child);
      log.end();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  try {
    const health = await waitForHealth(`http://127.0.0.1:${ports.gateway}/api/health`, child);
    console.log(`e2e: up: ${JSON.stringify(health.data?.services?.map((s) => `${s.name}:${s.status}`) ?? health)}`);
  } catch (error) {
    await product.stop();
    throw error;
  }
  return product;
}

/** Runs one pass's scenarios in order against a fresh product; answers their results. */
async function runPass(pass, browser) {
  console.log(`\ne2e: pass "${pass.name}"`);
  const product = await startProduct(pass);
  const results = [];
  const { baseUrl, sandboxUrl, dataDir } = product;
  const state = {
    baseUrl,
    sandboxUrl,
    artifacts: path.join(artifacts, slug(pass.name)),
    browser,
    dataDir,
    consoleErrors: [],
  };
  mkdirSync(state.artifacts, { recursive: true });
  try {
    const only = process.env.E2E_ONLY;
    const passed = new Set();
    for (const scenario of pass.scenarios) {
      if (only && !scenario.name.includes(only)) continue;
      const name = `${pass.name}: ${scenario.name}`;
      const missing = (scenario.needs ?? []).filter((needed) => !passed.has(needed));
      if (missing.length > 0) {
        results.push({ name, status: 'skipped', detail: `needs: ${missing.join(', ')}` });
        console.log(`  - ${scenario.name}: skipped (needs ${missing.join(', ')})`);
        continue;
      }
      const started = Date.now();
      try {
        await scenario.run(state);
        passed.add(scenario.name);
        results.push({ name, status: 'passed', detail: `${Date.now() - started} ms` });
        console.log(`  ✓ ${scenario.name} (${Date.now() - started} ms)`);
      } catch (error) {
        const detail = String(error?.message ?? error)
          .split('\n')
          .slice(0, 6)
          .join('\n      ');
        results.push({ name, status: 'failed', detail });
        console.log(`  ✕ ${scenario.name}\n      ${detail}`);
        const page = state.lastPage;
        if (page && !page.isClosed()) {
          const file = `failed-${slug(scenario.name)}.png`;
          await page.screenshot({ path: path.join(state.artifacts, file), fullPage: true }).catch(() => undefined);
        }
      }
    }
    if (state.consoleErrors.length > 0) {
      console.log(`\ne2e: console errors in the app (${state.consoleErrors.length}):`);
      for (const line of state.consoleErrors) console.log(`  ${line}`);
    }
  } finally {
    // each pass's pages go with it; the browser stays for the next pass
    for (const context of browser.contexts()) await context.close().catch(() => undefined);
    await product.stop();
  }
  return results;
}

const slug = (name) => name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();

async function main() {
  mkdirSync(artifacts, { recursive: true });

  console.log('e2e: building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@kickstand/web'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the web build failed');

  const results = [];
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    for (const pass of passes) results.push(...(await runPass(pass, browser)));
  } finally {
    await browser.close().catch(() => undefined);
  }

  const count = (status) => results.filter((r) => r.status === status).length;
  console.log(
    `\ne2e: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped; artifacts in ${path.relative(repoRoot, artifacts)}/`,
  );
  if (count('failed') > 0 || count('skipped') > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`e2e: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
