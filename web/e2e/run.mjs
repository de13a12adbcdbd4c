/* global console, process, fetch, setTimeout */
// End-to-end run against the real product in single-machine mode, in the system's Chromium:
//   npm run test:e2e            (from the repo root; or: node web/e2e/run.mjs)
// It builds the web app, starts `node scripts/start.js` on free ports with a temporary DATA_DIR,
// waits for /api/health, runs the scenarios (scenarios.mjs), writes screenshots and the server log
// to web/e2e-artifacts/, and stops the product with SIGINT. Not part of `npm test`.
// Environment: CHROMIUM_PATH (default /usr/bin/chromium), E2E_ONLY=<substring> to run some scenarios.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { scenarios } from './scenarios.mjs';

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

async function main() {
  mkdirSync(artifacts, { recursive: true });

  console.log('e2e: building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@kickstand/web'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the web build failed');

  const ports = { gateway: await freePort(), sandbox: await freePort() };
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kickstand-e2e-'));
  const baseUrl = `http://localhost:${ports.gateway}`;
  const sandboxUrl = `http://localhost:${ports.sandbox}`;
  const log = createWriteStream(path.join(artifacts, 'server.log'));

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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);

  const results = [];
  let browser;
  try {
    const health = await waitForHealth(`http://127.0.0.1:${ports.gateway}/api/health`, child);
    console.log(`e2e: up: ${JSON.stringify(health.data?.services?.map((s) => `${s.name}:${s.status}`) ?? health)}`);

    browser = await chromium.launch({
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

    const only = process.env.E2E_ONLY;
    const state = { baseUrl, sandboxUrl, artifacts, browser, dataDir, consoleErrors: [] };
    const passed = new Set();
    for (const scenario of scenarios) {
      if (only && !scenario.name.includes(only)) continue;
      const missing = (scenario.needs ?? []).filter((name) => !passed.has(name));
      if (missing.length > 0) {
        results.push({ name: scenario.name, status: 'skipped', detail: `needs: ${missing.join(', ')}` });
        console.log(`  - ${scenario.name}: skipped (needs ${missing.join(', ')})`);
        continue;
      }
      const started = Date.now();
      try {
        await scenario.run(state);
        passed.add(scenario.name);
        results.push({ name: scenario.name, status: 'passed', detail: `${Date.now() - started} ms` });
        console.log(`  ✓ ${scenario.name} (${Date.now() - started} ms)`);
      } catch (error) {
        const detail = String(error?.message ?? error)
          .split('\n')
          .slice(0, 6)
          .join('\n      ');
        results.push({ name: scenario.name, status: 'failed', detail });
        console.log(`  ✕ ${scenario.name}\n      ${detail}`);
        const page = state.lastPage;
        if (page && !page.isClosed()) {
          const file = `failed-${scenario.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`;
          await page.screenshot({ path: path.join(artifacts, file), fullPage: true }).catch(() => undefined);
        }
      }
    }
    if (state.consoleErrors.length > 0) {
      console.log(`\ne2e: console errors in the app (${state.consoleErrors.length}):`);
      for (const line of state.consoleErrors) console.log(`  ${line}`);
    }
  } finally {
    await browser?.close().catch(() => undefined);
    console.log('e2e: stopping Kickstand (SIGINT)…');
    await stop(child);
    log.end();
    await rm(dataDir, { recursive: true, force: true });
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
