/* global console, process, fetch, setTimeout */
// Starts Kickstand (`node scripts/start.js`) for one e2e pass: free ports, a temporary DATA_DIR, the
// pass's environment, its log in web/e2e-artifacts/<pass.logFile>; stops it with SIGINT.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const artifacts = path.resolve(here, '..', 'e2e-artifacts');
export const startTimeoutMs = 240_000;

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
 * Starts Kickstand on free ports with a temporary DATA_DIR and `pass.env`; answers what the
 * scenarios need to reach it, and `stop()`.
 * @param {{ name: string, logFile: string, env: Record<string, string> }} pass
 */
export async function startProduct(pass) {
  const ports = { gateway: await freePort(), sandbox: await freePort() };
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kickstand-e2e-'));
  const baseUrl = `http://localhost:${ports.gateway}`;
  const sandboxUrl = `http://localhost:${ports.sandbox}`;
  mkdirSync(artifacts, { recursive: true });
  // appended: after a failure Playwright starts the pass's product again, and the log of the run that
  // failed is the one worth reading (global-setup.mjs empties it at the start of each e2e run)
  const log = createWriteStream(path.join(artifacts, pass.logFile), { flags: 'a' });
  log.write(`=== e2e: "${pass.name}" started ${new Date().toISOString()} on ${baseUrl}\n`);

  console.log(
    `e2e: pass "${pass.name}": starting Kickstand on ${baseUrl} (sandbox ${sandboxUrl}, DATA_DIR ${dataDir})…`,
  );
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
      LOG_LEVEL: process.env.E2E_LOG_LEVEL || 'info',
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
      console.log(`e2e: pass "${pass.name}": stopping Kickstand (SIGINT)…`);
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
