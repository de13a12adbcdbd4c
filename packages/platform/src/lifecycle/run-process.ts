import type { Logger } from '../log';

/** The parts of `process` that runProcess uses (a test passes a fake). */
export interface ProcessHost {
  once(event: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
  on(event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown) => void): unknown;
  exit(code: number): void;
}

export interface ProcessOptions {
  log: Logger;
  /** `process` unless a test passes its own. */
  host?: ProcessHost;
  /** Starts everything and returns how to stop it. */
  start(): Promise<() => Promise<void>>;
  /** After a stop signal, the process exits within this time even if something hangs. */
  shutdownTimeoutMs?: number;
}

/**
 * Runs a process until SIGTERM/SIGINT, then stops it in order within the deadline. A crash
 * (uncaught exception, unhandled rejection) also goes through the same orderly stop, then exits 1.
 */
export function runProcess({ log, start, host = process, shutdownTimeoutMs = 10_000 }: ProcessOptions): void {
  let stopping = false;
  // A stop signal may arrive while start() is still running: shutdown waits for it, then stops it.
  const starting = start();

  const shutdown = async (reason: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'shutting down');
    const deadline = setTimeout(() => {
      log.error({ shutdownTimeoutMs }, 'shutdown took too long; exiting anyway');
      host.exit(1);
    }, shutdownTimeoutMs);
    deadline.unref();
    try {
      const stop = await starting.catch(() => undefined);
      await stop?.();
      log.info('stopped');
    } catch (error) {
      log.error({ err: error }, 'error while stopping');
      exitCode = 1;
    }
    clearTimeout(deadline);
    log.flush?.();
    host.exit(exitCode);
  };

  host.once('SIGTERM', () => void shutdown('SIGTERM', 0));
  host.once('SIGINT', () => void shutdown('SIGINT', 0));
  host.on('uncaughtException', (error) => {
    log.fatal({ err: error }, 'uncaught exception');
    void shutdown('uncaughtException', 1);
  });
  host.on('unhandledRejection', (error) => {
    log.fatal({ err: error }, 'unhandled rejection');
    void shutdown('unhandledRejection', 1);
  });

  starting.catch((error: unknown) => {
    log.fatal({ err: error }, 'failed to start');
    void shutdown('start failed', 1);
  });
}
