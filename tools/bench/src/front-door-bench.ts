import { fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MessageChannel, Worker, type MessagePort as WorkerMessagePort } from 'node:worker_threads';
import { chatMessageSentBody, createUlidSource, deliveryRequest, kickSignature, rfc3339Seconds } from './kick-delivery';
import { createRawHttpPool } from './raw-http';
import { rounded, summarize, type LatencySummary } from './stats';
import { clockTicks, threadTicks } from './process-stats';

/**
 * The front door's CPU per webhook delivery (issue 22 item 2): single-machine mode's real front
 * door worker thread (front-door-worker.js of a build) with a stub owner at the other end of its
 * MessagePort (the build's serve-hand-off.js, every delivery finished at once), and N signed
 * deliveries from a client in a child process (keep-alive connections, one request in flight on
 * each, as Kick sends). Reports the front thread's CPU (/proc, the thread the Worker added) and its
 * event-loop busy time per delivery, and the process's CPU per delivery (front thread, stub owner,
 * V8's helper threads). `--root` runs another build (e.g. main's, before the plain webhook route).
 * By default the client sends as fast as the front answers (a turn of the front then handles about
 * one delivery per connection); `--rate R` paces it at R deliveries a second instead, as Kick's are
 * spread in time (about one delivery per turn at 1,000/s), and the client reports the ack latency:
 *   npm run bench:front-door -- --deliveries 20000 --connections 8 [--rate 1000] [--root /work/main]
 */

const repoRoot = path.resolve(__dirname, '../../..');

/** Voluntary context switches (the thread went to sleep: each is a wake-up later) of each thread of this process. */
function threadSleeps(): Map<string, number> {
  const sleeps = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const status = readFileSync(`/proc/self/task/${tid}/status`, 'utf8');
      sleeps.set(tid, Number(/^voluntary_ctxt_switches:\s*(\d+)/m.exec(status)?.[1] ?? 0));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return sleeps;
}

interface ClientReady {
  kind: 'warmed';
}
interface ClientDone {
  kind: 'done';
  ms: number;
  statuses: Record<string, number>;
  cpuMicros: number;
  /** From writing a request to its answer, in ms (the measured deliveries only). */
  ackMs: LatencySummary;
}

/** The client: signs `distinct` deliveries, sends `warmup` then, told to go, `deliveries` of them in turn. */
function runClient(): void {
  process.once(
    'message',
    (start: {
      port: number;
      privatePem: string;
      distinct: number;
      warmup: number;
      deliveries: number;
      connections: number;
      /** Deliveries a second; 0: as fast as the front answers. */
      rate: number;
    }) => {
      const ulid = createUlidSource();
      const timestamp = rfc3339Seconds(Date.now());
      const requests = Array.from({ length: start.distinct }, (_, i) => {
        const messageId = ulid(Date.now());
        const body = chatMessageSentBody({
          chatMessageId: `chat-${i}`,
          broadcaster: { userId: 1000 + (i % 50), username: `streamer_${i % 50}` },
          sender: { userId: 5000 + i, username: `viewer_${i}` },
          content: `hello number ${i} !dice`,
          createdAt: timestamp,
        });
        const delivery = { messageId, subscriptionId: 'sub-1', timestamp, body };
        const signed = { ...delivery, signature: kickSignature(start.privatePem, delivery) };
        return deliveryRequest(`127.0.0.1:${start.port}`, '/api/kick/webhook', signed);
      });
      const statuses: Record<string, number> = {};
      let sent = 0;

      const latencies: number[] = [];
      // per request in flight (its tag): when it was written and what to do with its answer
      const waiting = new Map<number, { writtenAt: number; onAnswer: () => void }>();
      const pool = createRawHttpPool({
        host: '127.0.0.1',
        port: start.port,
        connections: start.connections,
        timeoutMs: 10_000,
        onAnswer: (tag, status, error) => {
          const request = waiting.get(tag);
          waiting.delete(tag);
          if (!request) return;
          latencies.push(performance.now() - request.writtenAt);
          const key = status === null ? `error: ${error ?? ''}` : String(status);
          statuses[key] = (statuses[key] ?? 0) + 1;
          request.onAnswer();
        },
      });

      function sendOne(onAnswer: () => void): void {
        const bytes = requests[sent % requests.length] as Buffer;
        const tag = sent;
        sent += 1;
        waiting.set(tag, { writtenAt: performance.now(), onAnswer });
        pool.request(bytes, tag);
      }

      /** As fast as the front answers: each connection sends its next once answered. */
      function sendFlatOut(count: number, finished: () => void): void {
        let answered = 0;
        const target = sent + count;
        const one = () =>
          sendOne(() => {
            answered += 1;
            if (sent < target) one();
            else if (answered === count) finished();
          });
        for (let i = 0; i < Math.min(start.connections, count); i++) one();
      }

      /** At `rate` a second: what is due is sent every millisecond (queued while the connections are busy). */
      function sendPaced(count: number, finished: () => void): void {
        let answered = 0;
        let issued = 0;
        const startedAt = performance.now();
        const timer = setInterval(() => {
          const due = Math.min(count, Math.floor(((performance.now() - startedAt) * start.rate) / 1000));
          while (issued < due) {
            issued += 1;
            sendOne(() => {
              answered += 1;
              if (answered === count) finished();
            });
          }
          if (issued === count) clearInterval(timer);
        }, 1);
      }

      const send = start.rate > 0 ? sendPaced : sendFlatOut;

      send(start.warmup, () => {
        for (const key of Object.keys(statuses)) delete statuses[key];
        latencies.length = 0;
        process.send?.({ kind: 'warmed' } satisfies ClientReady);
        process.once('message', () => {
          const cpuBefore = process.cpuUsage();
          const startedAt = performance.now();
          send(start.deliveries, () => {
            const cpu = process.cpuUsage(cpuBefore);
            const done: ClientDone = {
              kind: 'done',
              ms: performance.now() - startedAt,
              statuses,
              cpuMicros: cpu.user + cpu.system,
              ackMs: rounded(summarize(latencies), 3),
            };
            pool.close();
            process.send?.(done, () => process.exit(0));
          });
        });
      });
    },
  );
}

interface ServeHandOffModule {
  serveWebhookHandOff(port: WorkerMessagePort, door: unknown, log: unknown): { close(): void };
}

async function runBench(): Promise<void> {
  const { values } = parseArgs({
    options: {
      deliveries: { type: 'string', default: '20000' },
      warmup: { type: 'string', default: '3000' },
      connections: { type: 'string', default: '8' },
      distinct: { type: 'string', default: '256' },
      rate: { type: 'string', default: '0' },
      root: { type: 'string', default: repoRoot },
    },
  });
  const deliveries = Number(values.deliveries);
  const root = path.resolve(values.root);
  const frontDir = path.join(root, 'apps/single-machine/dist/front-door');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- another build's module, chosen at run time
  const { serveWebhookHandOff } = require(path.join(frontDir, 'serve-hand-off.js')) as ServeHandOffModule;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the same build's logger
  const { createLogger } = require(path.join(root, 'packages/platform/dist/log/index.js')) as {
    createLogger(settings: { level: string }): unknown;
  };

  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  let finished = 0;
  const channel = new MessageChannel();
  const handOff = serveWebhookHandOff(
    channel.port2,
    {
      intake: {
        refused: () => undefined,
        accept: () => Promise.reject(new Error('the front door hands deliveries over as acknowledged')),
        acceptAcknowledged: async () => {
          finished += 1;
        },
      },
      publicKey: async () => publicPem,
      toleranceSeconds: 300,
      refetchIntervalMs: 60_000,
      fallbackPem: undefined,
    },
    createLogger({ level: 'warn' }),
  );

  // the hand-off's messages (one per delivery before batching, one per front event-loop turn after)
  let handOffMessages = 0;
  channel.port2.on('message', (message: { kind: string }) => {
    if (message.kind === 'delivery' || message.kind === 'deliveries') handOffMessages += 1;
  });

  // the owner's reports of finished deliveries (one per owner event-loop turn before batching them in time)
  let finishedReports = 0;
  const postToFront = channel.port2.postMessage.bind(channel.port2);
  channel.port2.postMessage = (message: { kind: string }, transfer?: Parameters<typeof postToFront>[1]) => {
    if (message.kind === 'finished') finishedReports += 1;
    postToFront(message, transfer);
  };

  const threadsBefore = new Set(threadTicks().keys());
  const worker = new Worker(path.join(frontDir, 'front-door-worker.js'), {
    workerData: {
      options: {
        port: 0,
        host: '127.0.0.1',
        gatewayUrl: 'http://127.0.0.1:1',
        realtimeUrl: 'http://127.0.0.1:1',
        bodyLimit: '100kb',
        verification: { toleranceSeconds: 300, refetchIntervalMs: 60_000, fallbackPem: undefined },
        handOffTimeoutMs: 10_000,
        maxUnfinished: 100_000,
      },
      ownerPort: channel.port1,
      log: { level: 'warn' },
    },
    transferList: [channel.port1],
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.on('message', (status: { kind: string; port?: number; message?: string }) => {
      if (status.kind === 'listening') resolve(status.port as number);
      if (status.kind === 'failed') reject(new Error(status.message));
    });
    worker.once('error', reject);
  });
  const frontThreads = [...threadTicks().keys()].filter((tid) => !threadsBefore.has(tid));

  const client = fork(__filename, ['--client'], { stdio: 'inherit' });
  const fromClient = <T>() => new Promise<T>((resolve) => client.once('message', (message) => resolve(message as T)));
  const warmed = fromClient<ClientReady>();
  client.send({
    port,
    privatePem,
    distinct: Number(values.distinct),
    warmup: Number(values.warmup),
    deliveries,
    connections: Number(values.connections),
    rate: Number(values.rate),
  });
  await warmed;

  const ticksBefore = threadTicks();
  const sleepsBefore = threadSleeps();
  const eluBefore = worker.performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  const finishedBefore = finished;
  const messagesBefore = handOffMessages;
  const reportsBefore = finishedReports;
  const done = fromClient<ClientDone>();
  client.send({ go: true });
  const result = await done;
  const elu = worker.performance.eventLoopUtilization(eluBefore);
  const cpu = process.cpuUsage(cpuBefore);
  const ticksAfter = threadTicks();
  const sleepsAfter = threadSleeps();
  const sleepsOf = (tids: string[]) =>
    tids.reduce((sum, tid) => sum + (sleepsAfter.get(tid) ?? 0) - (sleepsBefore.get(tid) ?? 0), 0);
  const frontTicks = frontThreads.reduce(
    (sum, tid) => sum + (ticksAfter.get(tid) ?? 0) - (ticksBefore.get(tid) ?? 0),
    0,
  );
  const mainTid = String(process.pid);
  const ownerTicks = (ticksAfter.get(mainTid) ?? 0) - (ticksBefore.get(mainTid) ?? 0);

  const perDelivery = (micros: number) => (micros / deliveries).toFixed(1);
  console.log(
    JSON.stringify(
      {
        build: root,
        deliveries,
        connections: Number(values.connections),
        rate: Number(values.rate) || 'flat out',
        statuses: result.statuses,
        handedOver: finished - finishedBefore,
        perSecond: Math.round((deliveries / result.ms) * 1000),
        deliveriesPerHandOffMessage: Number((deliveries / (handOffMessages - messagesBefore)).toFixed(2)),
        deliveriesPerFinishedReport: Number((deliveries / (finishedReports - reportsBefore)).toFixed(2)),
        frontThreadCpuMicrosPerDelivery: perDelivery((frontTicks / clockTicks()) * 1e6),
        frontThreadSleepsPerDelivery: Number((sleepsOf(frontThreads) / deliveries).toFixed(2)),
        ownerStubThreadSleepsPerDelivery: Number((sleepsOf([String(process.pid)]) / deliveries).toFixed(2)),
        frontThreadBusyMicrosPerDelivery: perDelivery(elu.active * 1000),
        frontThreadUtilization: Number(elu.utilization.toFixed(3)),
        ownerStubThreadCpuMicrosPerDelivery: perDelivery((ownerTicks / clockTicks()) * 1e6),
        processCpuMicrosPerDelivery: perDelivery(cpu.user + cpu.system),
        clientCpuMicrosPerDelivery: perDelivery(result.cpuMicros),
        ackMs: result.ackMs,
      },
      null,
      2,
    ),
  );
  worker.postMessage({ kind: 'stop' });
  await new Promise((resolve) => worker.once('exit', resolve));
  handOff.close();
}

if (process.argv.includes('--client')) runClient();
else
  void runBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
