import path from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { WebhookDoorHandOff } from '@kickstand/kick-link';
import type { SocketIoEntry } from '@kickstand/platform/lifecycle';
import type { Logger, LoggerSettings } from '@kickstand/platform/log';
import { frontDoorResourceLimits } from '../heap-settings';
import type { FrontDoorWorkerData } from './front-door-worker';
import type { FrontDoorOptions, ThreadControl, ThreadStatus } from './messages';
import { serveWebhookHandOff } from './serve-hand-off';
import { serveSocketTunnel } from './socket-tunnel-owner';

export interface RunningFrontDoor {
  /** The public port it listens on. */
  port: number;
  /**
   * Tells the thread to stop (requests in flight are answered first), waits for it to end, then
   * for this thread to finish the deliveries it handed over (already answered 200), at most 10 s.
   */
  stop(): Promise<void>;
}

/**
 * The worker runs compiled JavaScript: next to this file in dist, and under jest (which runs the
 * TypeScript sources) the compiled one of this package (`npm test` builds first).
 */
export const frontDoorWorkerFile = __filename.endsWith('.ts')
  ? path.resolve(__dirname, '../../dist/front-door/front-door-worker.js')
  : path.join(__dirname, 'front-door-worker.js');

/** A stop that takes longer than this (a request stuck in the thread) ends the thread anyway. */
const stopTimeoutMs = 5000;
/** How long a stop waits for the deliveries handed over to be finished before the services stop. */
const finishTimeoutMs = 10_000;

/**
 * Starts the front door (front-door.ts) in a worker thread and serves its hand-off from this one.
 * Resolves once it listens; rejects with the thread's error (a port in use, say) otherwise.
 * A thread that dies or ends later is an uncaught error here, which stops the whole process in
 * order (runProcess), as a crash of this thread would.
 */
export async function startFrontDoorThread(
  options: FrontDoorOptions,
  door: WebhookDoorHandOff,
  settings: {
    log: Logger;
    logSettings: LoggerSettings;
    workerFile?: string;
    memoryLogIntervalMs?: number;
    /** realtime's socket.io: the front door's websockets reach it through a tunnel (socket-tunnel-owner.ts), not its port. */
    socketIo?: SocketIoEntry;
  },
): Promise<RunningFrontDoor> {
  const { log } = settings;
  const channel = new MessageChannel();
  const handOff = serveWebhookHandOff(channel.port2, door, log);
  const sockets = settings.socketIo ? new MessageChannel() : undefined;
  const tunnel = sockets && settings.socketIo ? serveSocketTunnel(sockets.port2, settings.socketIo) : undefined;
  const workerData: FrontDoorWorkerData = {
    options,
    ownerPort: channel.port1,
    log: settings.logSettings,
    ...(settings.memoryLogIntervalMs === undefined ? {} : { memoryLogIntervalMs: settings.memoryLogIntervalMs }),
    ...(sockets ? { socketPort: sockets.port1 } : {}),
  };
  const worker = new Worker(settings.workerFile ?? frontDoorWorkerFile, {
    workerData,
    transferList: sockets ? [channel.port1, sockets.port1] : [channel.port1],
    resourceLimits: frontDoorResourceLimits,
  });
  let isStopping = false;
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));

  const port = await new Promise<number>((resolve, reject) => {
    const onStatus = (status: ThreadStatus) => {
      if (status.kind === 'listening') resolve(status.port);
      if (status.kind === 'failed') reject(Object.assign(new Error(status.message), { code: status.code }));
    };
    worker.on('message', onStatus);
    worker.once('error', reject);
    void exited.then((code) => reject(new Error(`the front door thread ended before it listened (exit code ${code})`)));
  }).catch(async (error: unknown) => {
    handOff.close();
    tunnel?.close();
    await worker.terminate();
    throw error;
  });

  worker.on('error', (error) => {
    // as a crash of this thread: runProcess stops everything in order and exits 1
    throw Object.assign(error, { message: `the front door thread failed: ${error.message}` });
  });
  // A thread that ends unasked leaves the public port closed: an unhandled rejection, which
  // runProcess treats as a crash (orderly stop, exit 1), rather than a process nobody can reach.
  void exited.then((code) => {
    if (isStopping) return;
    log.error({ code }, 'the front door thread ended: the public port is closed');
    throw new Error(`the front door thread ended (exit code ${code})`);
  });

  return {
    port,
    async stop() {
      if (isStopping) return;
      isStopping = true;
      worker.postMessage({ kind: 'stop' } satisfies ThreadControl);
      const force = setTimeout(() => void worker.terminate(), stopTimeoutMs);
      await exited;
      clearTimeout(force);
      tunnel?.close();
      // the front takes no more deliveries: those it answered 200 are published before the services stop
      await handOff.finish(finishTimeoutMs);
      handOff.close();
    },
  };
}
