import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { createLogger, startMemoryLog, type LoggerSettings } from '@kickstand/platform/log';
import { startFrontDoor } from './front-door';
import type { FrontDoorOptions, ThreadControl, ThreadStatus } from './messages';

/** What the owner thread passes (front-door-thread.ts). */
export interface FrontDoorWorkerData {
  options: FrontDoorOptions;
  ownerPort: MessagePort;
  /** The socket.io tunnel to realtime in the owner thread (socket-tunnel-front.ts), when it serves one. */
  socketPort?: MessagePort;
  log: LoggerSettings;
  /** MEMORY_LOG_INTERVAL_MS: this thread logs its heap that often (a debugging aid). */
  memoryLogIntervalMs?: number;
}

// The entry of the front door's worker thread: starts it, says so, stops it when told.
const control = parentPort;
if (!control) throw new Error('front-door-worker runs as a worker thread (front-door-thread.ts)');
const data = workerData as FrontDoorWorkerData;
const log = createLogger(data.log).child({ thread: 'front-door' });
const tell = (status: ThreadStatus) => control.postMessage(status);
if (data.memoryLogIntervalMs !== undefined) startMemoryLog(log, data.memoryLogIntervalMs);

startFrontDoor(data.options, data.ownerPort, log, undefined, data.socketPort).then(
  (front) => {
    control.on('message', (message: ThreadControl) => {
      if (message.kind !== 'stop') return;
      void front.close().then(() => {
        tell({ kind: 'stopped' });
        control.close();
      });
    });
    tell({ kind: 'listening', port: front.port });
  },
  (error: unknown) => {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
    tell({
      kind: 'failed',
      message: error instanceof Error ? error.message : String(error),
      ...(code ? { code } : {}),
    });
    control.close();
  },
);
