import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MessageChannel, Worker, type MessagePort as WorkerMessagePort } from 'node:worker_threads';
import { serviceNames, type ServiceName } from '@kickstand/platform/config';
import { startHttpService } from '@kickstand/platform/lifecycle';
import { createTestPlatform } from '@kickstand/platform/testing';
import { createGateway } from '@kickstand/gateway';
import { createRealtimeService } from '@kickstand/realtime';
import { startDashboards } from './dashboards-client';
import { rounded, summarize } from './stats';
import { clockTicks, threadTicks } from './process-stats';

/**
 * The fan-out micro-bench of issue 22 (item 4): realtime alone, as in single-machine mode, with
 * no webhook, no bot and no Kick. In this process: the in-process bus, realtime (its own store)
 * and the gateway in front of it, with socket.io either served on the gateway's server
 * (`--front direct`, single-machine mode now) or proxied to realtime's own server over loopback
 * (`--front proxy`, as before). `chat.received` lines are published at R a second, each to a
 * channel drawn at random; N dashboards (socket.io clients in a process of their own, websocket,
 * through the gateway) record each chat-message. Reports the publish-to-dashboard latency and
 * this process's CPU per line (process.cpuUsage over the measured window: the bus, realtime's
 * mapping, fan-out and chat log, the gateway's socket work).
 *
 * `--front door-proxy|door-tunnel`: single-machine mode's two threads instead. The dashboards
 * connect to the real front door worker (front-door-worker.js of this build, nothing at its
 * webhook hand-off), which proxies their websockets to realtime's port (`door-proxy`, before) or
 * tunnels them over a MessagePort to realtime's engine in this thread (`door-tunnel`,
 * socket-tunnel-owner.js). The CPU of this (the owner) thread and of the front thread is read
 * per thread from /proc and given per line too.
 *
 * npm run bench:fanout -- [--front direct|proxy|door-proxy|door-tunnel] [--dashboards 1000]
 *   [--channels 1000] [--rate 1000] [--duration 20] [--warmup 5]
 */

const { values } = parseArgs({
  options: {
    front: { type: 'string', default: 'direct' },
    dashboards: { type: 'string', default: '1000' },
    channels: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
    out: { type: 'string' },
  },
});
const fronts = ['direct', 'proxy', 'door-proxy', 'door-tunnel'] as const;
const front = values.front as (typeof fronts)[number];
if (!fronts.includes(front)) throw new Error(`--front is one of ${fronts.join(', ')}`);
const dashboardCount = Number(values.dashboards);
const channelCount = Number(values.channels);
const rate = Number(values.rate);
const durationS = Number(values.duration);
const warmupS = Number(values.warmup);

/** How often the publisher catches up with the schedule. */
const tickMs = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const frontDoorDir = path.resolve(__dirname, '../../../apps/single-machine/dist/front-door');

interface SocketTunnelOwnerModule {
  serveSocketTunnel(port: WorkerMessagePort, socketIo: unknown): { close(): void };
}

/** The front door worker of this build, in front of realtime (its port, or the tunnel). */
async function startFrontDoorWorker(realtimeUrl: string, socketIo: unknown, isTunnel: boolean) {
  const handOff = new MessageChannel(); // nobody sends webhooks here
  const sockets = isTunnel ? new MessageChannel() : undefined;
  const tunnel = sockets
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build's module (tools/bench does not depend on the app)
      (require(path.join(frontDoorDir, 'socket-tunnel-owner.js')) as SocketTunnelOwnerModule).serveSocketTunnel(
        sockets.port2,
        socketIo,
      )
    : undefined;
  const threadsBefore = new Set(threadTicks().keys());
  const worker = new Worker(path.join(frontDoorDir, 'front-door-worker.js'), {
    workerData: {
      options: {
        port: 0,
        host: '127.0.0.1',
        gatewayUrl: realtimeUrl,
        realtimeUrl,
        bodyLimit: '100kb',
        verification: { toleranceSeconds: 300, refetchIntervalMs: 60_000, fallbackPem: undefined },
        handOffTimeoutMs: 10_000,
        maxUnfinished: 100_000,
      },
      ownerPort: handOff.port1,
      log: { level: 'warn' },
      ...(sockets ? { socketPort: sockets.port1 } : {}),
    },
    transferList: sockets ? [handOff.port1, sockets.port1] : [handOff.port1],
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.on('message', (status: { kind: string; port?: number; message?: string }) => {
      if (status.kind === 'listening') resolve(status.port as number);
      if (status.kind === 'failed') reject(new Error(status.message));
    });
    worker.once('error', reject);
  });
  return {
    port,
    threads: [...threadTicks().keys()].filter((tid) => !threadsBefore.has(tid)),
    async stop() {
      worker.postMessage({ kind: 'stop' });
      await new Promise((resolve) => worker.once('exit', resolve));
      tunnel?.close();
      handOff.port2.close();
    },
  };
}

async function main(): Promise<void> {
  const platform = await createTestPlatform('realtime');
  const realtimeService = createRealtimeService(platform, { instanceId: 'fanout-bench' });
  const realtime = await startHttpService(realtimeService, { port: 0, host: '127.0.0.1' });
  const upstream = `http://127.0.0.1:${realtime.port}`;
  const webDir = await mkdtemp(path.join(os.tmpdir(), 'fanout-web-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html>');
  const gateway = await startHttpService(
    createGateway(platform, {
      upstreams: Object.fromEntries(serviceNames.map((name) => [name, upstream])) as Record<ServiceName, string>,
      webDistDir: webDir,
      ...(front === 'direct' ? { inProcessSocketIo: realtimeService.socketIo } : {}),
    }),
    { port: 0, host: '127.0.0.1' },
  );

  const channels = Array.from({ length: channelCount }, (_, i) => ({
    userId: `fanout-${i}-${randomUUID()}`,
    broadcaster: String(100_000 + i),
  }));
  const sessions = Array.from({ length: dashboardCount }, (_, i) => {
    const channel = channels[i % channelCount] as (typeof channels)[number];
    return {
      userId: channel.userId,
      token: platform.signToken({ userId: channel.userId, username: `fan${i}`, role: 'USER' }),
    };
  });
  const dashboardsPerChannel = channels.map((_, c) => sessions.filter((_, i) => i % channelCount === c).length);
  console.log(`fan-out bench: front ${front}, ${dashboardCount} dashboards over ${channelCount} channels, ${rate}/s`);
  const door = front.startsWith('door-')
    ? await startFrontDoorWorker(upstream, realtimeService.socketIo, front === 'door-tunnel')
    : undefined;
  const dashboards = await startDashboards({
    gatewayUrl: `http://127.0.0.1:${door?.port ?? gateway.port}`,
    sessions,
    parallelism: 50,
  });
  console.log(`  ${dashboards.connected} connected, ${dashboards.failed} refused`);

  const publishedAt = new Map<string, number>();
  const expectedPerLine = new Map<string, number>();
  let sent = 0;
  let measuredFrom = Number.POSITIVE_INFINITY;
  const publishOne = (now: number) => {
    const c = Math.floor(Math.random() * channelCount);
    const channel = channels[c] as (typeof channels)[number];
    const messageId = `m${sent++}`;
    if (now >= measuredFrom) {
      publishedAt.set(messageId, now);
      expectedPerLine.set(messageId, dashboardsPerChannel[c] ?? 0);
    }
    void platform.bus.publish('chat.received', channel.broadcaster, {
      eventId: messageId,
      kickMessageId: messageId,
      messageId,
      broadcasterUserId: channel.broadcaster,
      ownerUserId: channel.userId,
      sender: { userId: '42', username: 'viewer_bob', identity: { usernameColor: '#FF0000', badges: [] } },
      content: `hello from the fan-out bench, line ${sent}`,
      createdAt: { seconds: BigInt(Math.floor(now / 1000)), nanos: (now % 1000) * 1_000_000 },
      isFromBot: false,
    });
  };

  const startedAt = Date.now();
  measuredFrom = startedAt + warmupS * 1000;
  const endsAt = measuredFrom + durationS * 1000;
  let cpuAtStart: NodeJS.CpuUsage | undefined;
  let ticksAtStart = new Map<string, number>();
  let sentAtStart = 0;
  while (Date.now() < endsAt) {
    const now = Date.now();
    if (cpuAtStart === undefined && now >= measuredFrom) {
      cpuAtStart = process.cpuUsage();
      ticksAtStart = threadTicks();
      sentAtStart = sent;
    }
    const due = Math.floor(((now - startedAt) / 1000) * rate);
    while (sent < due) publishOne(now);
    await sleep(tickMs);
  }
  const cpu = process.cpuUsage(cpuAtStart);
  const ticksAtEnd = threadTicks();
  const measured = sent - sentAtStart;
  const threadMsPerLine = (tids: readonly string[]) => {
    const ticks = tids.reduce((sum, tid) => sum + (ticksAtEnd.get(tid) ?? 0) - (ticksAtStart.get(tid) ?? 0), 0);
    return Number((((ticks / clockTicks()) * 1000) / measured).toFixed(4));
  };
  await sleep(2000); // the last lines arrive
  const records = await dashboards.collect();

  const latencies: number[] = [];
  const receivedPerLine = new Map<string, number>();
  records.ids.forEach((id, i) => {
    const published = publishedAt.get(id);
    if (published === undefined) return;
    latencies.push((records.at[i] as number) - published);
    receivedPerLine.set(id, (receivedPerLine.get(id) ?? 0) + 1);
  });
  let expected = 0;
  let missing = 0;
  for (const [id, count] of expectedPerLine) {
    expected += count;
    missing += Math.max(0, count - (receivedPerLine.get(id) ?? 0));
  }
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const result = {
    front,
    dashboards: dashboards.connected,
    channels: channelCount,
    rate,
    linesMeasured: measured,
    achievedRate: Number((measured / durationS).toFixed(1)),
    events: { expected, received: latencies.length, missing, disconnects: records.disconnects },
    latencyMs: rounded(summarize(latencies)),
    cores: Number((cpuMs / (durationS * 1000)).toFixed(3)),
    cpuMsPerLine: Number((cpuMs / measured).toFixed(4)),
    ownerThreadCpuMsPerLine: threadMsPerLine([String(process.pid)]),
    ...(door ? { frontThreadCpuMsPerLine: threadMsPerLine(door.threads) } : {}),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  console.log(JSON.stringify(result, null, 1));
  if (values.out) await writeFile(values.out, JSON.stringify(result, null, 1));

  await dashboards.close();
  await door?.stop();
  await gateway.stop();
  await realtime.stop();
  await platform.close();
  await rm(webDir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
