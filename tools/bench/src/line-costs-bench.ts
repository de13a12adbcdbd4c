import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * The owner thread's small per-chat-line costs outside the bus codec and the store (issue 22 item
 * 2; docs/performance.md, "The owner's per-line cost, another round"), each alone, in CPU µs per
 * operation (process.cpuUsage over a loop), several rounds back to back. `--root` runs another
 * build's compiled modules (e.g. main's) for a before/after:
 *   npm run bench:line-costs
 *   npm run bench:line-costs -- --root /work/main
 */

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: path.resolve(__dirname, '../../..') },
    rounds: { type: 'string', default: '5' },
  },
});
const root = path.resolve(args.root);
const rounds = Number(args.rounds);
const load = createRequire(path.join(root, 'package.json'));

interface Timestamp {
  seconds: bigint;
  nanos: number;
}
interface Payloads {
  parseDelivery(eventType: string, eventVersion: string, rawBody: Buffer): unknown;
}
interface Buckets {
  createRecentIds(): { isNew(id: string): boolean };
  createMinuteAccumulator(): {
    add(userId: string, at: Date, change: { kind: 'message'; chatter: string }): void;
    drain(): unknown[];
  };
}
interface Analytics {
  createStreamAnalytics(deps: { repo: object; clock: { now(): Date }; log: object }): {
    countChat(message: object): void;
  };
}
interface BotRunnerReadModel {
  createCooldowns(): {
    lastAnsweredAtMs(key: string): number | undefined;
    answered(key: string, sentAtMs: number, now: Date): void;
  };
  createRecentReplies(): {
    get(messageId: string): unknown;
    start(messageId: string, answer: object, at: Date): unknown;
    answered(messageId: string): void;
  };
}
interface RealtimePayloads {
  isoOf(timestamp: Timestamp | undefined, fallback: Date): string;
}
interface PromMetric {
  labels(labels: Record<string, string>): { inc?(): void; observe?(value: number): void };
}
type MetricClass = new (config: object) => PromMetric;
interface Metrics {
  counter: MetricClass;
  histogram: MetricClass;
}

const payloads = load(path.join(root, 'services/kick-link/dist/webhook-payloads.js')) as Payloads;
const buckets = load(path.join(root, 'services/realtime/dist/analytics/buckets.js')) as Buckets;
const analytics = load(path.join(root, 'services/realtime/dist/analytics/stream-analytics.js')) as Analytics;
const realtime = load(path.join(root, 'services/realtime/dist/payloads.js')) as RealtimePayloads;
const readModel = load(path.join(root, 'services/bot-runner/dist/read-model.js')) as BotRunnerReadModel;

/** The per-message counters and histograms as that build makes them (prom-client's own before). */
function metricsOf(): Metrics {
  const prom = load('prom-client') as { Counter: MetricClass; Histogram: MetricClass };
  try {
    const bound = load(path.join(root, 'packages/platform/dist/metrics/bound-metrics.js')) as {
      BoundLabelsCounter: MetricClass;
      BoundLabelsHistogram: MetricClass;
    };
    return { counter: bound.BoundLabelsCounter, histogram: bound.BoundLabelsHistogram };
  } catch {
    return { counter: prom.Counter, histogram: prom.Histogram };
  }
}

/** µs of CPU per call of `run(i)`, `n` calls a round; `setUp` before each round, not timed. */
function measure(name: string, n: number, run: (i: number) => void, setUp: (round: number) => void = () => {}): void {
  const figures: string[] = [];
  for (let round = 0; round < rounds; round += 1) {
    setUp(round);
    const start = process.cpuUsage();
    for (let i = 0; i < n; i += 1) run(i);
    const used = process.cpuUsage(start);
    figures.push(((used.user + used.system) / n).toFixed(2));
  }
  console.log(`${name.padEnd(58)} ${figures.join(' ')}`);
}

const user = (id: number, name: string, identity: unknown) => ({
  is_anonymous: false,
  user_id: id,
  username: name,
  is_verified: false,
  profile_picture: '',
  channel_slug: name,
  identity,
});
// as the bench's generator writes them (kick-delivery.ts)
const bodies = Array.from({ length: 1000 }, (_, i) =>
  Buffer.from(
    JSON.stringify({
      message_id: `01JC${i}ABCDEFGHJKMNPQRST`,
      replies_to: null,
      broadcaster: user(100_000 + i, `channel_${i}`, null),
      sender: user(500_000 + i, `viewer_${i}`, { username_color: '#1E90FF', badges: [] }),
      content: i % 5 === 0 ? '$dice' : `hello there number ${i}`,
      emotes: [],
      created_at: '2026-11-26T11:00:00Z',
    }),
  ),
);
const users = Array.from({ length: 1000 }, (_, i) => `01JUSER${String(i).padStart(19, '0')}`);
const nowMs = Date.now();
const timestampOf = (ms: number): Timestamp => ({
  seconds: BigInt(Math.floor(ms / 1000)),
  nanos: (ms % 1000) * 1_000_000,
});

console.log(`build: ${root}; CPU µs per operation, ${rounds} rounds`);
measure('kick-link parseDelivery (a chat line)', 100_000, (i) =>
  payloads.parseDelivery('chat.message.sent', '1', bodies[i % 1000] as Buffer),
);

const recent = buckets.createRecentIds();
// the ids as a chat line's are: `chat:` and Kick's message id, a UUID
const chatIds = Array.from({ length: 100_000 }, () => `chat:${randomUUID()}`);
measure('realtime analytics recent ids isNew (20,000 kept)', 100_000, (i) => recent.isNew(chatIds[i] as string));

// bot-runner's per-command state as the bench drives it: 200 answers a second, 1,000 channels × 8
// commands, each round a new 300,000 (25 minutes' worth) on fresh maps
const answers = 300_000;
const cooldownKeys = Array.from({ length: answers }, (_, i) => `${(i * 7919) % 1000}:command-${i % 8}`);
let cooldowns = readModel.createCooldowns();
measure(
  'bot-runner cooldowns: a command checked and answered',
  answers,
  (i) => {
    const key = cooldownKeys[i] as string;
    cooldowns.lastAnsweredAtMs(key);
    cooldowns.answered(key, nowMs + i * 5, new Date(nowMs + i * 5));
  },
  () => {
    cooldowns = readModel.createCooldowns();
  },
);
const replyIds = Array.from({ length: answers }, () => randomUUID());
let replies = readModel.createRecentReplies();
measure(
  'bot-runner recent replies: a line looked up, started, answered',
  answers,
  (i) => {
    const id = replyIds[i] as string;
    replies.get(id);
    replies.start(id, { kind: 'answer' }, new Date(nowMs + i * 5));
    replies.answered(id);
  },
  () => {
    replies = readModel.createRecentReplies();
  },
);

const counter = analytics.createStreamAnalytics({
  repo: {},
  clock: { now: () => new Date() },
  log: { error() {}, warn() {}, info() {}, debug() {} },
});
let lines: object[] = [];
measure(
  'realtime analytics countChat (a chat line)',
  100_000,
  (i) => counter.countChat(lines[i] as object),
  (round) => {
    lines = Array.from({ length: 100_000 }, (_, i) => ({
      isFromBot: false,
      ownerUserId: users[i % 1000],
      messageId: `m-${round}-${i}`,
      eventId: `e-${round}-${i}`,
      createdAt: timestampOf(nowMs - 500),
      receivedAt: timestampOf(nowMs),
      sender: { username: `viewer_${i % 5000}` },
    }));
  },
);

const minutes = buckets.createMinuteAccumulator();
measure(
  'realtime analytics minute accumulator: a line (two adds)',
  200_000,
  (i) => {
    const at = new Date(nowMs + i);
    const change = { kind: 'message' as const, chatter: `viewer_${i % 5000}` };
    minutes.add(users[i % 1000] as string, at, change);
    minutes.add('*', at, change);
  },
  () => minutes.drain(),
);

let times: Timestamp[] = [];
measure(
  'realtime isoOf (created_at, whole seconds)',
  200_000,
  (i) => realtime.isoOf(times[i], new Date(nowMs)),
  () => {
    times = Array.from({ length: 200_000 }, (_, i) => timestampOf(Math.floor((nowMs + i) / 1000) * 1000));
  },
);

const { counter: Counter, histogram: Histogram } = metricsOf();
const consumed = new Counter({ name: 'c_total', help: 'c', labelNames: ['service', 'topic', 'group'], registers: [] });
const waited = new Histogram({
  name: 'w_seconds',
  help: 'w',
  labelNames: ['service', 'topic', 'group'],
  buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 10],
  registers: [],
});
const groups = Array.from({ length: 8 }, (_, g) => ({
  consumed: consumed.labels({ service: 's', topic: 'chat.received', group: `g${g}` }),
  waited: waited.labels({ service: 's', topic: 'chat.received', group: `g${g}` }),
}));
measure('metrics: a bound counter inc + a bound histogram observe', 1_000_000, (i) => {
  const group = groups[i & 7] as (typeof groups)[number];
  group.consumed.inc?.();
  group.waited.observe?.((i % 1000) / 100_000);
});
