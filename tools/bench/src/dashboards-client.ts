import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The generator's handle on the dashboards process (dashboards-process.ts). */
export interface DashboardsHandle {
  pid: number;
  connected: number;
  failed: number;
  collect(): Promise<{ ids: string[]; at: number[]; disconnects: number }>;
  close(): Promise<void>;
}

function answer<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as T);
    };
    const onExit = (code: number | null) => reject(new Error(`the dashboards process exited (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function startDashboards(options: {
  gatewayUrl: string;
  sessions: { userId: string; token: string }[];
  parallelism: number;
}): Promise<DashboardsHandle> {
  const child = fork(path.join(__dirname, 'dashboards-process.js'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (child.pid === undefined) throw new Error('the dashboards process did not start');
  const connected = answer<{ connected: number; failed: number }>(child, 'connected');
  child.send({
    type: 'connect',
    url: options.gatewayUrl,
    sessions: options.sessions,
    parallelism: options.parallelism,
  });
  const result = await connected;
  return {
    pid: child.pid,
    connected: result.connected,
    failed: result.failed,
    async collect() {
      const records = answer<{ ids: string[]; at: number[]; disconnects: number }>(child, 'records');
      child.send({ type: 'collect' });
      return records;
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
