// A diagnostic preload (docs/performance.md, "The ack's tail"): in every thread of the process it
// is loaded into (`node --require …/thread-probe.cjs`, workers included), it records event-loop gaps
// (a 2 ms timer more than 2 ms late), GC entries, and the thread's CPU and run-queue wait from
// /proc/thread-self/schedstat every 50 ms, all in epoch ms, as JSON lines in /tmp/ack-probe/.
// Its timers cost each thread ~2 % of a core: use it for where-does-the-time-go runs only.
const { isMainThread, threadId } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const label = `${path.basename(process.argv[1] || 'node')}-${process.pid}-${isMainThread ? 'main' : 't' + threadId}`;
if (/tsc|npm/.test(label)) return;
const dir = '/tmp/ack-probe';
const file = path.join(dir, `${label}.jsonl`);
const origin = performance.timeOrigin;
let gaps = [],
  gcs = [],
  sched = [];
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  if (now - last > 4) gaps.push([Math.round((origin + last) * 10) / 10, Math.round((now - last) * 10) / 10]);
  last = now;
}, 2).unref();
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    gcs.push([
      Math.round((origin + e.startTime) * 10) / 10,
      Math.round(e.duration * 100) / 100,
      e.detail ? e.detail.kind : e.kind,
    ]);
}).observe({ entryTypes: ['gc'] });
function readSched() {
  try {
    const [cpu, wait] = fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return [cpu, wait];
  } catch {
    return [0, 0];
  }
}
let prev = readSched();
setInterval(() => {
  const cur = readSched();
  sched.push([
    Math.round(origin + performance.now()),
    Math.round((cur[0] - prev[0]) / 1e4) / 100,
    Math.round((cur[1] - prev[1]) / 1e4) / 100,
  ]);
  prev = cur;
}, 50).unref();
setInterval(() => {
  if (!gaps.length && !gcs.length && !sched.length) return;
  fs.appendFileSync(file, JSON.stringify({ gaps, gcs, sched }) + '\n');
  gaps = [];
  gcs = [];
  sched = [];
}, 1000).unref();
