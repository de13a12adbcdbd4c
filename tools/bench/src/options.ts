import type { AllocationProfileKind } from './allocation-probe';

/** The command line of `npm run bench` (see README.md); every option has a default. */

/** Bins of a phase's timeline ("p99 per 5 s"), unless told otherwise (`--timeline-bin`). */
export const defaultTimelineBinSeconds = 5;

export interface BenchOptions {
  mode: 'single' | 'distributed';
  isStep: boolean;
  channels: number;
  commandsPerChannel: number;
  commandShare: number;
  phases: string[];
  latencyRate: number;
  throughputRate: number;
  dashboardRate: number;
  dashboards: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  isFresh: boolean;
  isEchoOn: boolean;
  logLevel: string;
  isCpuProfile: boolean;
  /**
   * The owner thread's allocations over each measured window (single-machine mode): all of them
   * (`--alloc-prof`) or what outlived the young generation (`--promoted-prof`); undefined: none.
   */
  allocationProfile: AllocationProfileKind | undefined;
  /** Seconds a bin of the per-phase timeline ("p99 per N s") spans. */
  timelineBinSeconds: number;
  isDirect: boolean;
  nodeFlags: string[];
  /** Extra node flags for the Kick sandbox's process (e.g. "--trace-gc": its share of the machine is part of the figures). */
  sandboxNodeFlags: string[];
  out: string | undefined;
  step: { start: number; increment: number; seconds: number; maxAckP99Ms: number; maxReplyP99Ms: number; max: number };
}

export const usage = `usage: node tools/bench/dist/main.js [options]   (npm run bench -- [options])

  --distributed            Kickstand as one process per part on Kafka and MongoDB (KAFKA_BROKERS, MONGO_URL)
  --step                   raise the rate step by step until latency or errors break; report the highest sustained
  --phases a,b,c           latency,throughput,dashboards (default: all three)
  --channels N             channels (streamers with a running bot), default 1000
  --commands-per-channel K custom commands per channel, default 8
  --command-share F        share of $ commands, default 0.2
  --latency-rate R         default 1000 (distributed 500)
  --throughput-rate R      default 3000 (distributed 1500)
  --dashboards N           socket.io dashboards for the dashboards phase, default 1000
  --dashboard-rate R       default 500
  --duration S             measured seconds per phase, default 30 (step: --step-seconds, 15)
  --warmup S               unmeasured seconds before each phase, default 5
  --connections N          keep-alive connections of the generator, default 64
  --fresh                  set the channels up again instead of reusing the prepared ones
  --no-echo                the sandbox does not echo the bot's lines back as webhooks (Kick does)
  --log-level L            Kickstand's LOG_LEVEL, default info (its own default)
  --cpu-prof               run Kickstand with --cpu-prof (profiles under the run folder)
  --alloc-prof             bytes the owner thread allocates a message, by function (single-machine mode)
  --promoted-prof          the same for what outlives its young generation (promoted), by function
  --timeline-bin S         seconds a bin of the "p99 per S s" timeline spans, default 5 (e.g. 1 beside a --cpu-prof)
  --direct                 diagnostics: deliveries go straight to kick-link, skipping the gateway's proxy hop
  --node-flags "…"         extra node flags for Kickstand's processes, e.g. "--optimize-for-size"
  --sandbox-node-flags "…" extra node flags for the Kick sandbox's process, e.g. "--trace-gc"
  --out FILE               also write the JSON report here
  --step-start R --step-increment R --step-max R --step-seconds S --max-ack-p99 MS --max-reply-p99 MS
`;

/** The options that take no value. */
const flagNames = [
  'distributed',
  'step',
  'fresh',
  'no-echo',
  'cpu-prof',
  'alloc-prof',
  'promoted-prof',
  'direct',
  'help',
];

export function parseOptions(argv: readonly string[]): BenchOptions {
  const args = [...argv];
  const flags = new Set<string>();
  const values = new Map<string, string>();
  while (args.length > 0) {
    const arg = args.shift() as string;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}"\n\n${usage}`);
    // split at the first '=' only: a value may hold more (`--node-flags=--v8-pool-size=1`)
    const equals = arg.indexOf('=');
    const name = equals < 0 ? arg.slice(2) : arg.slice(2, equals);
    const inline = equals < 0 ? undefined : arg.slice(equals + 1);
    if (flagNames.includes(name)) {
      flags.add(name);
      continue;
    }
    const value = inline ?? args.shift();
    if (value === undefined) throw new Error(`--${name} needs a value\n\n${usage}`);
    values.set(name, value);
  }
  if (flags.has('help')) throw new Error(usage);
  const known = new Set([
    'phases',
    'channels',
    'commands-per-channel',
    'command-share',
    'latency-rate',
    'throughput-rate',
    'dashboards',
    'dashboard-rate',
    'duration',
    'warmup',
    'connections',
    'log-level',
    'node-flags',
    'sandbox-node-flags',
    'out',
    'timeline-bin',
    'step-start',
    'step-increment',
    'step-max',
    'step-seconds',
    'max-ack-p99',
    'max-reply-p99',
  ]);
  for (const name of values.keys()) if (!known.has(name)) throw new Error(`unknown option --${name}\n\n${usage}`);
  const number = (name: string, fallback: number): number => {
    const raw = values.get(name);
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} must be a number, got "${raw}"`);
    return parsed;
  };
  const positive = (name: string, fallback: number): number => {
    const value = number(name, fallback);
    if (value === 0) throw new Error(`--${name} must be more than 0`);
    return value;
  };
  const isDistributed = flags.has('distributed');
  for (const profile of ['alloc-prof', 'promoted-prof']) {
    if (isDistributed && flags.has(profile)) throw new Error(`--${profile} profiles single-machine mode only`);
  }
  if (flags.has('alloc-prof') && flags.has('promoted-prof')) {
    throw new Error('--alloc-prof and --promoted-prof sample the same profiler: one at a time');
  }
  const phases = (values.get('phases') ?? 'latency,throughput,dashboards').split(',').map((p) => p.trim());
  for (const phase of phases) {
    if (!['latency', 'throughput', 'dashboards'].includes(phase)) throw new Error(`unknown phase "${phase}"`);
  }
  return {
    mode: isDistributed ? 'distributed' : 'single',
    isStep: flags.has('step'),
    channels: number('channels', 1000),
    commandsPerChannel: number('commands-per-channel', 8),
    commandShare: number('command-share', 0.2),
    phases,
    latencyRate: number('latency-rate', isDistributed ? 500 : 1000),
    throughputRate: number('throughput-rate', isDistributed ? 1500 : 3000),
    dashboardRate: number('dashboard-rate', 500),
    dashboards: number('dashboards', 1000),
    durationSeconds: number('duration', 30),
    warmupSeconds: number('warmup', 5),
    connections: number('connections', 64),
    isFresh: flags.has('fresh'),
    isEchoOn: !flags.has('no-echo'),
    logLevel: values.get('log-level') ?? 'info',
    isCpuProfile: flags.has('cpu-prof'),
    allocationProfile: flags.has('alloc-prof') ? 'allocated' : flags.has('promoted-prof') ? 'promoted' : undefined,
    timelineBinSeconds: positive('timeline-bin', defaultTimelineBinSeconds),
    isDirect: flags.has('direct'),
    nodeFlags: (values.get('node-flags') ?? '').split(' ').filter(Boolean),
    sandboxNodeFlags: (values.get('sandbox-node-flags') ?? '').split(' ').filter(Boolean),
    out: values.get('out'),
    step: {
      start: number('step-start', isDistributed ? 500 : 1000),
      increment: number('step-increment', isDistributed ? 250 : 500),
      max: number('step-max', 20_000),
      seconds: number('step-seconds', 15),
      maxAckP99Ms: number('max-ack-p99', 100),
      maxReplyP99Ms: number('max-reply-p99', 500),
    },
  };
}
