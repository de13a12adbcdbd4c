import { execFileSync, fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { parseArgs } from 'node:util';
import { summarize } from './stats';

/**
 * What it costs on this machine for one process to wake another: two processes pass one byte back
 * and forth over a loopback TCP connection (as a webhook and its 200, or a POST to Kick and its
 * answer, do), one round trip at a time, so each message wakes a process that is asleep in epoll.
 * Run twice: the two processes free to run on any core ("spread": each wake-up crosses cores),
 * then both pinned to one core with `taskset` ("one core": no wake-up crosses cores). Per round
 * trip: wall time, and CPU time (user + system) of each side.
 *
 * Why it exists: on the VM of 26–27 November a round trip across cores cost 90–190 µs of CPU on
 * each side, 3–4 times the same exchange on one core (docs/performance.md, "What a wake-up
 * costs"), and every delivery, reply and echo of the bench is such a wake-up. Run it first on a
 * new machine to know which kind it is before comparing figures with older ones.
 *   npm run bench:wakeup -- [--round-trips 20000]
 */

interface SideResult {
  wallUsPerRoundTrip: number;
  cpuUsPerRoundTrip: number;
  /** Of cpuUsPerRoundTrip, the time in the kernel. */
  systemUsPerRoundTrip: number;
  peerCpuUsPerRoundTrip: number;
  p50Us: number;
  p99Us: number;
}

const cpuMicros = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

/** The echoing side: sends back every byte it gets, then reports its CPU when told to stop. */
async function runEcho(port: number): Promise<void> {
  const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
  await once(socket, 'connect');
  const started = process.cpuUsage();
  socket.on('data', (data) => {
    if (data[data.length - 1] === 0) {
      process.send?.({ cpuUs: cpuMicros(process.cpuUsage(started)) }, () => process.exit(0));
      return;
    }
    socket.write(data);
  });
}

/** The measuring side: `roundTrips` one-byte exchanges with a forked echo process. */
async function runMeasure(roundTrips: number): Promise<SideResult> {
  const server = net.createServer({ noDelay: true });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  const echo = fork(__filename, ['--role', 'echo', '--port', String(port)], { stdio: 'inherit' });
  const [socket] = (await once(server, 'connection')) as [net.Socket];
  const one = Buffer.from([1]);
  const times: number[] = [];
  const warmup = Math.min(1000, Math.floor(roundTrips / 10));
  let cpuStart = process.cpuUsage();
  let wallStart = performance.now();
  for (let i = 0; i < warmup + roundTrips; i++) {
    if (i === warmup) {
      cpuStart = process.cpuUsage();
      wallStart = performance.now();
    }
    const sentAt = performance.now();
    socket.write(one);
    await once(socket, 'data');
    if (i >= warmup) times.push((performance.now() - sentAt) * 1000);
  }
  const wallUs = (performance.now() - wallStart) * 1000;
  const cpu = process.cpuUsage(cpuStart);
  const peer = once(echo, 'message') as Promise<[{ cpuUs: number }]>;
  socket.write(Buffer.from([0]));
  const [{ cpuUs: echoCpuUs }] = await peer;
  socket.destroy();
  server.close();
  const latency = summarize(times);
  return {
    wallUsPerRoundTrip: wallUs / roundTrips,
    cpuUsPerRoundTrip: cpuMicros(cpu) / roundTrips,
    systemUsPerRoundTrip: cpu.system / roundTrips,
    // the echo's count includes its warm-up and its start: a slight overstatement
    peerCpuUsPerRoundTrip: echoCpuUs / (roundTrips + warmup),
    p50Us: latency.p50,
    p99Us: latency.p99,
  };
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** One measurement in a child of its own, pinned to CPU 0 or not; returns what it printed. */
async function measureIn(pinned: boolean, roundTrips: number): Promise<SideResult> {
  const args = [__filename, '--role', 'measure', '--round-trips', String(roundTrips)];
  const child = pinned
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the measuring process exited with ${code}`);
  return JSON.parse(output) as SideResult;
}

const formatUs = (value: number) => value.toFixed(1).padStart(7);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      role: { type: 'string', default: 'main' },
      port: { type: 'string' },
      'round-trips': { type: 'string', default: '20000' },
    },
  });
  const roundTrips = Number(values['round-trips']);
  if (!Number.isInteger(roundTrips) || roundTrips < 100) throw new Error('--round-trips must be a whole number ≥ 100');
  if (values.role === 'echo') return runEcho(Number(values.port));
  if (values.role === 'measure') {
    process.stdout.write(JSON.stringify(await runMeasure(roundTrips)));
    return;
  }
  const layouts: Array<{ name: string; pinned: boolean }> = [{ name: 'spread (any core)', pinned: false }];
  if (hasTaskset()) layouts.push({ name: 'one core (taskset -c 0)', pinned: true });
  else console.log('taskset is not installed: only the spread layout is measured');
  console.log(`${roundTrips} one-byte round trips over loopback TCP, µs per round trip`);
  console.log('layout                     wall    p50    p99   CPU measuring side (kernel)   CPU echo side');
  for (const layout of layouts) {
    const result = await measureIn(layout.pinned, roundTrips);
    console.log(
      `${layout.name.padEnd(24)}${formatUs(result.wallUsPerRoundTrip)}${formatUs(result.p50Us)}${formatUs(result.p99Us)}` +
        `${formatUs(result.cpuUsPerRoundTrip)} (${formatUs(result.systemUsPerRoundTrip).trim()})${' '.repeat(16)}${formatUs(result.peerCpuUsPerRoundTrip)}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
