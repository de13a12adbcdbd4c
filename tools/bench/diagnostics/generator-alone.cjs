// The load generator alone (docs/performance.md, "The ack's tail"): the bench's real phase
// (`runChatPhase` of tools/bench/dist/chat-load.js: planning, pre-signing on worker threads, the
// paced send loop, the reply poller) against a trivial server in a child process that answers every
// webhook 200 at once and plays the sandbox's record of the bot's lines (one reply per `$` command,
// read with GET /sandbox/api/chat). It reports what the generator itself costs the machine over the
// measured window: CPU per message, GCs (count and time by kind), the heap left after a full GC, peak
// RSS, and the ack/lag percentiles against a server that does nothing.
//   npm run build -w @kickstand/bench   (or npx tsc -b tools/bench)
//   node --expose-gc tools/bench/diagnostics/generator-alone.cjs [--rate 1000] [--duration 40] [--warmup 5]
//        [--channels 1000] [--connections 64] [--root <another built checkout>]
//        [--allocations]   (V8's sampling heap profiler over the window, collected objects included:
//                           the bytes each function allocates per message; it costs CPU, so no timing figures)
const { fork } = require('node:child_process');
const { generateKeyPairSync } = require('node:crypto');
const { mkdtempSync, writeFileSync } = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const v8 = require('node:v8');

if (process.argv[2] === '--serve') {
  // the trivial server: 200 to every POST, the bot's "replies" for GET /sandbox/api/chat
  const lines = [];
  let seq = 0;
  const server = http.createServer((req, res) => {
    if (req.method === 'POST') {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 }).end('{}');
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (body.content.startsWith('$')) {
          lines.push({ seq: ++seq, replyToMessageId: body.message_id, createdAt: new Date().toISOString() });
          if (lines.length > 20_000) lines.splice(0, 10_000);
        }
      });
      return;
    }
    const url = new URL(req.url, 'http://x');
    const afterSeq = Number(url.searchParams.get('afterSeq') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 1000);
    const data =
      afterSeq === 0 && limit === 1 ? lines.slice(-1) : lines.filter((l) => l.seq > afterSeq).slice(0, limit);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  return;
}

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const root = path.resolve(option('root', path.join(__dirname, '..', '..', '..')));
const rate = Number(option('rate', 1000));
const durationSeconds = Number(option('duration', 40));
const warmupSeconds = Number(option('warmup', 5));
const channelCount = Number(option('channels', 1000));
const connections = Number(option('connections', 64));
const isSamplingAllocations = args.includes('--allocations');
const { runChatPhase } = require(path.join(root, 'tools/bench/dist/chat-load.js'));

const gcs = [];
let oldSpaceAfterMajor = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = entry.detail ? entry.detail.kind : entry.kind;
    gcs.push({ at: performance.timeOrigin + entry.startTime, ms: entry.duration, kind });
    if (kind === 4 /* major */) {
      const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
      oldSpaceAfterMajor.push(old.space_used_size);
    }
  }
}).observe({ entryTypes: ['gc'] });
const mb = (bytes) => Number((bytes / 2 ** 20).toFixed(1));

/** The heap the phase holds: a full GC (outside the measured window), then old space, external memory and RSS. */
function heldHeap() {
  if (!global.gc) return 'run with --expose-gc';
  const before = process.memoryUsage();
  global.gc();
  const after = process.memoryUsage();
  const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
  return {
    heapUsedBeforeGcMb: mb(before.heapUsed),
    heapUsedMb: mb(after.heapUsed),
    oldSpaceUsedMb: mb(old.space_used_size),
    externalMb: mb(after.external),
    arrayBuffersMb: mb(after.arrayBuffers),
    rssMb: mb(after.rss),
  };
}

/** From `fromMs` to `toMs` (from now): every allocation site's bytes, collected objects included. */
function sampleAllocations(fromMs, toMs) {
  const { Session } = require('node:inspector');
  const session = new Session();
  session.connect();
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, answer) => (error ? reject(error) : resolve(answer))),
    );
  return new Promise((resolve) => {
    setTimeout(() => {
      void post('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      setTimeout(async () => {
        const { profile } = await post('HeapProfiler.stopSampling');
        session.disconnect();
        const bySite = new Map();
        const walk = (node) => {
          const frame = node.callFrame;
          const site = `${frame.functionName || '(anonymous)'} ${path.basename(frame.url)}:${frame.lineNumber + 1}`;
          bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
          node.children.forEach(walk);
        };
        walk(profile.head);
        const total = [...bySite.values()].reduce((a, b) => a + b, 0);
        resolve((messages) => ({
          total: Math.round(total / messages),
          ...Object.fromEntries(
            [...bySite]
              .sort((a, b) => b[1] - a[1])
              .slice(0, 25)
              .map(([site, bytes]) => [site, Math.round(bytes / messages)]),
          ),
        }));
      }, toMs - fromMs);
    }, fromMs);
  });
}

/** CPU ns so far of this process's main thread and of all its other threads (V8's GC and compiler helpers, libuv's). */
function threadCpu() {
  const { readdirSync, readFileSync } = require('node:fs');
  let main = 0;
  let others = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      if (tid === String(process.pid)) main += ns;
      else others += ns;
    } catch {
      // the thread ended meanwhile
    }
  }
  return { main, others };
}

const kindName = {
  1: 'scavenge',
  2: 'mark-compact (minor)',
  4: 'mark-compact',
  8: 'incremental',
  16: 'weak callbacks',
};

async function main() {
  const server = fork(__filename, ['--serve'], { stdio: 'inherit' });
  const port = await new Promise((resolve) => server.once('message', resolve));
  const url = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'generator-alone-'));
  const logFile = path.join(dir, 'server.log');
  writeFileSync(logFile, '');
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const channels = Array.from({ length: channelCount }, (_, i) => ({
    userId: `user-${i}`,
    username: `streamer_${i}`,
    kickUserId: 4_000_000 + i,
    kickUsername: `streamer_${i}`,
    subscriptionId: `01JSUBSCRIPTION${String(i).padStart(11, '0')}`,
    commands: Array.from({ length: 8 }, (_, k) => `c${k}`),
  }));
  const deployment = {
    mode: 'single',
    gatewayUrl: url,
    gatewayPort: port,
    sandboxUrl: url,
    kickstand: [],
    servicePorts: {},
    sandbox: { name: 'trivial-server', pid: server.pid, logFile },
  };
  let windowStart = 0;
  let heldAtEnd;
  let allocations;
  let cpuAtStart;
  let cpuAtEnd;
  const result = await runChatPhase({
    deployment,
    channels,
    signingKeyPem: privateKey,
    settings: {
      name: 'generator-alone',
      rate,
      durationSeconds,
      warmupSeconds,
      commandShare: 0.2,
      seed: 1,
      connections,
      replyWaitSeconds: 3,
    },
    watched: [
      { name: 'generator', pid: process.pid },
      { name: 'trivial server', pid: server.pid },
    ],
    progress: (line) => console.error(line),
    onStart: (epochMs) => {
      windowStart = epochMs + warmupSeconds * 1000;
      oldSpaceAfterMajor = [];
      // just after the last delivery was due, while the phase still holds everything it prepared
      setTimeout(() => (cpuAtStart = threadCpu()), windowStart - Date.now());
      setTimeout(
        () => {
          cpuAtEnd = threadCpu();
          heldAtEnd = heldHeap();
        },
        windowStart + durationSeconds * 1000 + 200 - Date.now(),
      );
      if (isSamplingAllocations) {
        allocations = sampleAllocations(windowStart - Date.now(), windowStart + durationSeconds * 1000 - Date.now());
      }
    },
  });
  const windowEnd = windowStart + durationSeconds * 1000;
  const inWindow = gcs.filter((gc) => gc.at >= windowStart && gc.at < windowEnd);
  const byKind = {};
  for (const gc of inWindow) {
    const name = kindName[gc.kind] ?? String(gc.kind);
    byKind[name] ??= { count: 0, totalMs: 0, maxMs: 0 };
    byKind[name].count++;
    byKind[name].totalMs = Number((byKind[name].totalMs + gc.ms).toFixed(2));
    byKind[name].maxMs = Number(Math.max(byKind[name].maxMs, gc.ms).toFixed(2));
  }
  const generator = result.processes.find((p) => p.name === 'generator');
  const report = {
    root,
    load: os.loadavg().map((x) => Number(x.toFixed(2))),
    rate,
    durationSeconds,
    warmupSeconds,
    sent: result.sent,
    errors: result.errors.total,
    replies: `${result.replies.received} of ${result.replies.expected}`,
    ackMs: result.ackLatencyMs,
    lagMs: result.generatorLagMs,
    generator: {
      cpuMsPerMessage: generator.cpuMsPerMessage,
      cores: generator.cores,
      peakRssMb: generator.peakRssMb,
      // the window's CPU by thread (the last 200 ms are the answers still coming)
      mainThreadMsPerMessage: Number(((cpuAtEnd.main - cpuAtStart.main) / 1e6 / result.sent).toFixed(4)),
      otherThreadsMsPerMessage: Number(((cpuAtEnd.others - cpuAtStart.others) / 1e6 / result.sent).toFixed(4)),
    },
    gcInWindow: byKind,
    oldSpaceAfterMajorGcsInPhaseMb: oldSpaceAfterMajor.map(mb),
    majorGcsAtSeconds: inWindow
      .filter((gc) => gc.kind === 4)
      .map((gc) => Number(((gc.at - windowStart) / 1000).toFixed(1))),
    heldAtWindowEnd: heldAtEnd,
    ...(allocations ? { allocatedBytesPerMessage: await allocations.then((top) => top(result.sent)) } : {}),
    ackTimeline: result.timeline.ack.map((bin) => bin.p99),
  };
  console.log(JSON.stringify(report, null, 2));
  server.kill();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
