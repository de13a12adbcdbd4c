const { spawn } = require('node:child_process');
const { describe, expect, test } = require('@jest/globals');
const { createSupervisor, nextRestart } = require('./supervisor');

/** Tiny parts: node scripts given inline. */
const node = (name, script) => ({ name, command: process.execPath, args: ['-e', script] });
const failing = (name) => node(name, 'process.exit(3)');
const longRunning = (name) =>
  node(name, 'process.on("SIGTERM", () => process.exit(0)); setInterval(() => {}, 1000); console.log("ready")');

/** Restart delays are recorded and then run at once, so no test waits for a backoff. */
function instantTimers() {
  const delays = [];
  return {
    delays,
    timers: {
      setTimeout: (fn, ms) => {
        delays.push(ms);
        return setImmediate(fn);
      },
      clearTimeout: (handle) => clearImmediate(handle),
    },
  };
}

function until(condition) {
  return new Promise((resolve) => {
    const poll = () => (condition() ? resolve() : setTimeout(poll, 10));
    poll();
  });
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('nextRestart', () => {
  test('when a part keeps failing quickly, then the delay doubles from 1 s up to 30 s', () => {
    const delays = [];
    let failures = 0;
    for (let i = 0; i < 7; i++) {
      const next = nextRestart(failures, 100);
      failures = next.failures;
      delays.push(next.delayMs);
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  test('when a part ran 30 s or more before it failed, then the delay starts again at 1 s', () => {
    expect(nextRestart(5, 30_000)).toEqual({ failures: 1, delayMs: 1000 });
    expect(nextRestart(5, 29_999)).toEqual({ failures: 6, delayMs: 30_000 });
  });
});

describe('createSupervisor', () => {
  test('when a part fails, then it is restarted with backoff and logged, and the other parts keep running', async () => {
    const lines = [];
    const { delays, timers } = instantTimers();
    const supervisor = createSupervisor({ log: (line) => lines.push(line), output: () => undefined, timers });
    supervisor.start(longRunning('steady'));
    const steadyPid = supervisor.pids().get('steady');
    supervisor.start(failing('flaky'));

    await until(() => delays.length >= 3);
    await supervisor.stop();

    expect(delays.slice(0, 3)).toEqual([1000, 2000, 4000]);
    const exits = lines.filter((line) => line.startsWith('flaky exited'));
    expect(exits.slice(0, 3)).toEqual([
      'flaky exited (code 3); restarting it in 1 s (failure 1 in a row)',
      'flaky exited (code 3); restarting it in 2 s (failure 2 in a row)',
      'flaky exited (code 3); restarting it in 4 s (failure 3 in a row)',
    ]);
    // one start line per run of flaky: the first and each restart
    expect(lines.filter((line) => /^flaky pid \d+$/.test(line)).length).toBeGreaterThanOrEqual(4);
    expect(lines.filter((line) => /^steady pid \d+$/.test(line))).toEqual([`steady pid ${steadyPid}`]);
    expect(isAlive(steadyPid)).toBe(false);
  });

  test('when a part is killed (SIGKILL), then it is started again as a new process', async () => {
    const lines = [];
    const { delays, timers } = instantTimers();
    const supervisor = createSupervisor({ log: (line) => lines.push(line), output: () => undefined, timers });
    supervisor.start(longRunning('auth'));
    const first = supervisor.pids().get('auth');

    process.kill(first, 'SIGKILL');
    await until(() => supervisor.pids().get('auth') !== undefined && supervisor.pids().get('auth') !== first);
    const second = supervisor.pids().get('auth');
    await supervisor.stop();

    expect(delays).toEqual([1000]);
    expect(lines.slice(0, 3)).toEqual([
      `auth pid ${first}`,
      'auth exited (SIGKILL); restarting it in 1 s (failure 1 in a row)',
      `auth pid ${second}`,
    ]);
  });

  test('when a part exits with code 0 (it was asked to stop), then it is not restarted, and once none is left the supervisor is idle', async () => {
    const lines = [];
    const { delays, timers } = instantTimers();
    let idle = false;
    let isReady = false;
    const supervisor = createSupervisor({
      log: (line) => lines.push(line),
      output: (_name, line) => (isReady ||= line === 'ready'),
      timers,
      onIdle: () => (idle = true),
    });
    supervisor.start(longRunning('bot-runner-2'));
    const pid = supervisor.pids().get('bot-runner-2');
    await until(() => isReady); // its SIGTERM handler is in place

    process.kill(pid, 'SIGTERM');
    await until(() => idle);

    expect(delays).toEqual([]);
    expect(lines).toEqual([
      `bot-runner-2 pid ${pid}`,
      'bot-runner-2 exited (code 0): it was asked to stop, so it is not restarted',
    ]);
    expect(supervisor.pids()).toEqual(new Map());
  });

  test('when a part writes lines, then each reaches the output with its name', async () => {
    const output = [];
    const supervisor = createSupervisor({ log: () => undefined, output: (name, line) => output.push([name, line]) });
    supervisor.start(node('talker', 'console.log("one"); console.error("two"); process.stdout.write("three")'));
    await until(() => output.length === 3);
    await supervisor.stop();
    expect(output.sort()).toEqual([
      ['talker', 'one'],
      ['talker', 'three'],
      ['talker', 'two'],
    ]);
  });

  test('when stopped, then every part gets SIGTERM, nothing is restarted, and stop resolves once all exited', async () => {
    const lines = [];
    const { delays, timers } = instantTimers();
    const supervisor = createSupervisor({ log: (line) => lines.push(line), output: () => undefined, timers });
    supervisor.start(longRunning('a'));
    supervisor.start(longRunning('b'));
    const pids = [...supervisor.pids().values()];

    expect(await supervisor.stop()).toBe(true);

    expect(pids.map(isAlive)).toEqual([false, false]);
    expect(delays).toEqual([]);
    expect(lines.at(-1)).toBe('stopping 2 process(es)…');
  });
});

describe('stopOnSignals', () => {
  test('when the supervising process gets SIGINT (Ctrl-C), then every part stops and it exits 0', async () => {
    // A supervising process of its own, as start-distributed is, with two long-running parts.
    const script = `
      const { createSupervisor, stopOnSignals } = require(${JSON.stringify(require.resolve('./supervisor'))});
      const supervisor = createSupervisor({ log: (line) => console.log(line), output: () => undefined });
      const part = (name) => ({ name, command: process.execPath,
        args: ['-e', 'process.on("SIGTERM", () => process.exit(0)); setInterval(() => {}, 1000)'] });
      supervisor.start(part('a'));
      supervisor.start(part('b'));
      stopOnSignals(supervisor, (line) => console.log(line));
      console.log('pids ' + [...supervisor.pids().values()].join(' '));
    `;
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    parent.stdout.on('data', (chunk) => (stdout += chunk));
    const exited = new Promise((resolve) => parent.on('exit', (code) => resolve(code)));
    await until(() => /^pids \d+ \d+$/m.test(stdout));
    const pids = /^pids (\d+) (\d+)$/m.exec(stdout).slice(1).map(Number);

    parent.kill('SIGINT');

    expect(await exited).toBe(0);
    expect(pids.map(isAlive)).toEqual([false, false]);
    expect(stdout.split('\n').slice(3)).toEqual([
      'SIGINT: stopping every process',
      'stopping 2 process(es)…',
      'every process has stopped',
      '',
    ]);
  });
});
