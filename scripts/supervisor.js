// Keeps a set of child processes running, for `npm run start:distributed` (scripts/start-distributed.js):
//
// - A part that fails (exits with a code other than 0, or is killed by a signal other than SIGTERM
//   and SIGINT: a crash, an OOM, `kill -9`) is restarted after a backoff: 1 s, 2 s, 4 s … up to 30 s
//   while it keeps failing quickly; a part that ran 30 s before it failed starts again at 1 s. Each
//   exit and restart is logged; the other parts keep running.
// - A part that exits with code 0 or dies of SIGTERM/SIGINT was asked to stop (a service exits 0
//   on those signals, e.g. `kill -TERM <pid>` for a graceful scale-in): it is logged and left stopped.
// - stop() (Ctrl-C, SIGTERM: see stopOnSignals) sends SIGTERM to every part, restarts nothing more,
//   kills what is still running after stopTimeoutMs, and resolves once every part has exited.
const { spawn } = require('node:child_process');

const defaultBackoff = { initialMs: 1000, maxMs: 30_000, stableMs: 30_000 };

/** A clean exit, or the signals a person or an orchestrator sends to stop a process. */
function isAskedToStop(code, signal) {
  return signal === null ? code === 0 : signal === 'SIGTERM' || signal === 'SIGINT';
}

/**
 * How long to wait before restarting a part that failed, and how many quick failures in a row it
 * has had now. `failures` is the count before this exit; a run of `stableMs` or more resets it.
 */
function nextRestart(failures, ranForMs, backoff = defaultBackoff) {
  const inARow = ranForMs >= backoff.stableMs ? 1 : failures + 1;
  return { failures: inARow, delayMs: Math.min(backoff.maxMs, backoff.initialMs * 2 ** (inARow - 1)) };
}

/**
 * @param {object} options
 * @param {(line: string) => void} options.log the supervisor's own lines
 * @param {(name: string, line: string) => void} options.output each line a part writes (stdout and stderr)
 * @param {() => void} [options.onIdle] every part has stopped by itself (exit 0), none is left to restart
 * @param {typeof defaultBackoff} [options.backoff]
 * @param {number} [options.stopTimeoutMs] how long stop() waits before SIGKILL (12 s: services stop within 10 s)
 * @param {{ setTimeout: typeof setTimeout, clearTimeout: typeof clearTimeout }} [options.timers] for tests
 * @param {() => number} [options.now] for tests
 */
function createSupervisor(options) {
  const { log, output, onIdle = () => undefined } = options;
  const backoff = options.backoff ?? defaultBackoff;
  const stopTimeoutMs = options.stopTimeoutMs ?? 12_000;
  const timers = options.timers ?? { setTimeout, clearTimeout };
  const now = options.now ?? Date.now;

  /** name → { part, child, startedAt, failures, restartTimer } */
  const entries = new Map();
  let stopping;
  let resolveStopped = () => undefined;

  function isIdle() {
    return [...entries.values()].every((entry) => !entry.child && !entry.restartTimer);
  }

  function pipeLines(name, stream) {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) output(name, line);
    });
    stream.on('end', () => {
      if (buffered) output(name, buffered);
      buffered = '';
    });
  }

  function launch(entry) {
    const { part } = entry;
    entry.restartTimer = undefined;
    const child = spawn(part.command, part.args ?? [], {
      cwd: part.cwd,
      env: part.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    entry.child = child;
    entry.startedAt = now();
    pipeLines(part.name, child.stdout);
    pipeLines(part.name, child.stderr);
    if (child.pid !== undefined) log(`${part.name} pid ${child.pid}${part.detail ? ` ${part.detail}` : ''}`);
    let hasExited = false;
    const exited = (how, failed) => {
      if (hasExited) return;
      hasExited = true;
      onExit(entry, how, failed);
    };
    child.on('exit', (code, signal) => exited(signal ?? `code ${code}`, !isAskedToStop(code, signal)));
    // e.g. the command does not exist: there is no process, and maybe no 'exit' either
    child.on('error', (error) => {
      if (child.pid === undefined) exited(`could not start: ${error.message}`, true);
    });
  }

  function onExit(entry, how, failed) {
    const { name } = entry.part;
    entry.child = undefined;
    if (stopping) {
      if (isIdle()) resolveStopped();
      return;
    }
    if (!failed) {
      log(`${name} exited (${how}): it was asked to stop, so it is not restarted`);
      if (isIdle()) onIdle();
      return;
    }
    const { failures, delayMs } = nextRestart(entry.failures, now() - entry.startedAt, backoff);
    entry.failures = failures;
    log(`${name} exited (${how}); restarting it in ${delayMs / 1000} s (failure ${failures} in a row)`);
    entry.restartTimer = timers.setTimeout(() => launch(entry), delayMs);
  }

  return {
    /** Starts a part and keeps it running. */
    start(part) {
      if (stopping) throw new Error('The supervisor is stopping');
      if (entries.has(part.name)) throw new Error(`A part named ${part.name} runs already`);
      const entry = { part, child: undefined, startedAt: 0, failures: 0, restartTimer: undefined };
      entries.set(part.name, entry);
      launch(entry);
    },

    /** The pid of each part running now (name → pid). */
    pids() {
      const pids = new Map();
      for (const [name, entry] of entries) if (entry.child?.pid !== undefined) pids.set(name, entry.child.pid);
      return pids;
    },

    /** SIGTERM to every part, SIGKILL after stopTimeoutMs; resolves true when all stopped in time. */
    stop() {
      if (stopping) return stopping;
      let inTime = true;
      stopping = new Promise((resolve) => {
        resolveStopped = () => resolve(inTime);
      });
      const running = [...entries.values()].filter((entry) => entry.child);
      for (const entry of entries.values()) {
        if (entry.restartTimer) timers.clearTimeout(entry.restartTimer);
        entry.restartTimer = undefined;
      }
      if (running.length === 0) {
        resolveStopped();
        return stopping;
      }
      log(`stopping ${running.length} process(es)…`);
      for (const entry of running) entry.child.kill('SIGTERM');
      const killTimer = setTimeout(() => {
        for (const entry of entries.values()) {
          if (!entry.child) continue;
          inTime = false;
          log(`${entry.part.name} did not stop within ${stopTimeoutMs / 1000} s; killing it`);
          entry.child.kill('SIGKILL');
        }
      }, stopTimeoutMs);
      killTimer.unref();
      void stopping.then(() => clearTimeout(killTimer));
      return stopping;
    },
  };
}

/**
 * Ctrl-C (SIGINT) or SIGTERM stops every part, then the process exits: 0 when all stopped in time,
 * 1 otherwise. A terminal's Ctrl-C reaches the parts as well; they stop on it by themselves (exit 0)
 * and are not restarted.
 */
function stopOnSignals(supervisor, log) {
  const stopAndExit = (signal) => {
    log(`${signal}: stopping every process`);
    void supervisor.stop().then((inTime) => {
      log('every process has stopped');
      process.exit(inTime ? 0 : 1);
    });
  };
  process.on('SIGINT', () => stopAndExit('SIGINT'));
  process.on('SIGTERM', () => stopAndExit('SIGTERM'));
}

module.exports = { createSupervisor, defaultBackoff, nextRestart, stopOnSignals };
