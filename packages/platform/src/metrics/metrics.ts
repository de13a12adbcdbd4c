import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { BoundLabelsCounter, BoundLabelsHistogram } from './bound-metrics';

/**
 * The Prometheus metrics of this process. One registry per process: in single-machine mode every
 * service shares it and the `service` label tells them apart. The ones counted per message are
 * `BoundLabels*` (bound-metrics.ts): their children bound with `labels()` count in plain numbers.
 */
export interface Metrics {
  registry: Registry;
  httpRequestDuration: Histogram<'service' | 'method' | 'route' | 'status'>;
  busPublished: Counter<'service' | 'topic'>;
  busConsumed: Counter<'service' | 'topic' | 'group'>;
  busHandlerFailures: Counter<'service' | 'topic' | 'group'>;
  busDeadLettered: Counter<'service' | 'topic' | 'group'>;
  /** From the webhook receiving a chat message to the bot's chat.send for it. */
  commandLatency: Histogram<'service'>;
  /**
   * How long a message waited on the bus: published → its handler called (first attempt), per
   * consumer group; where the adapter knows when it was published (the in-process bus).
   */
  busWait: Histogram<'service' | 'topic' | 'group'>;
  /**
   * A reply's path, stage by stage (docs/performance.md, "Where the reply latency goes"): `hand-off`
   * (the webhook door received a delivery → kick-link's intake starts it), `intake` (→ published on
   * the bus), `bot-runner` (its chat.received handler called → chat.send published), `to-posted`
   * (chat.send published → Kick answered its POST), `kick-post` (POST /chat sent → answered),
   * `received-to-posted` (the whole of Kickstand's part: delivery received → Kick answered).
   */
  replyStage: Histogram<'service' | 'stage'>;
  botsRunning: Gauge<'service'>;
  /** Kick webhook deliveries: accepted, or refused with the reason (kick-link's door). */
  kickDeliveries: Counter<'service' | 'result'>;
  /** Correctly signed Kick deliveries that could not be used, kept as dead letters. */
  kickDeadLetters: Counter<'service' | 'reason'>;
  /** Chat replies by who posted them (sender kind) and what became of them (sent, failed, dropped). */
  kickReplies: Counter<'service' | 'sender' | 'result'>;
  /** Bytes in the webhook door's spool, waiting for Kafka (kick-link on Kafka; 0 when forwarded). */
  webhookSpoolBytes: Gauge<'service'>;
}

let metrics: Metrics | undefined;

/** Finer than the HTTP buckets at the low end: a stage of a 25 ms reply is a few milliseconds. */
const stageBuckets = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 10];

/** The histograms of where time goes between the parts of a reply (a function of its own: length). */
function waitHistograms(registry: Registry): Pick<Metrics, 'busWait' | 'replyStage'> {
  return {
    busWait: new BoundLabelsHistogram({
      name: 'kickstand_bus_wait_seconds',
      help: 'Time a message waited on the bus, from its publish to its handler (first attempt), by topic and consumer group',
      labelNames: ['service', 'topic', 'group'],
      buckets: stageBuckets,
      registers: [registry],
    }),
    replyStage: new BoundLabelsHistogram({
      name: 'kickstand_reply_stage_seconds',
      help: 'Time of each stage of a reply: hand-off, intake, bot-runner, to-posted, kick-queue, kick-post, received-to-posted',
      labelNames: ['service', 'stage'],
      buckets: stageBuckets,
      registers: [registry],
    }),
  };
}

export function processMetrics(): Metrics {
  if (metrics) return metrics;
  const registry = new Registry();
  // The event-loop-delay monitor samples with a timer: every 10 ms by default, which cost each
  // process ~5 ms of CPU a second, idle or not; every 50 ms costs ~2.5, and a stalled loop still
  // delays (so shows in) the next sample (docs/performance.md).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 50 });
  metrics = {
    registry,
    httpRequestDuration: new Histogram({
      name: 'kickstand_http_request_duration_seconds',
      help: 'HTTP request duration by route (the matched route pattern, never the raw path)',
      labelNames: ['service', 'method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    busPublished: new BoundLabelsCounter({
      name: 'kickstand_bus_messages_published_total',
      help: 'Messages published, by topic',
      labelNames: ['service', 'topic'],
      registers: [registry],
    }),
    busConsumed: new BoundLabelsCounter({
      name: 'kickstand_bus_messages_consumed_total',
      help: 'Messages handled successfully, by topic and consumer group',
      labelNames: ['service', 'topic', 'group'],
      registers: [registry],
    }),
    busHandlerFailures: new BoundLabelsCounter({
      name: 'kickstand_bus_handler_failures_total',
      help: 'Handler calls that threw (each attempt counts; retries follow)',
      labelNames: ['service', 'topic', 'group'],
      registers: [registry],
    }),
    busDeadLettered: new BoundLabelsCounter({
      name: 'kickstand_bus_messages_dead_lettered_total',
      help: 'Messages sent to <group>.dlq after their last attempt failed',
      labelNames: ['service', 'topic', 'group'],
      registers: [registry],
    }),
    commandLatency: new BoundLabelsHistogram({
      name: 'kickstand_command_latency_seconds',
      help: 'Time from the webhook receiving a chat message to the chat.send that answers it',
      labelNames: ['service'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [registry],
    }),
    ...waitHistograms(registry),
    botsRunning: new Gauge({
      name: 'kickstand_bots_running',
      help: 'Bots switched on',
      labelNames: ['service'],
      registers: [registry],
    }),
    kickDeliveries: new BoundLabelsCounter({
      name: 'kickstand_kick_deliveries_total',
      help: 'Kick webhook deliveries: accepted, or refused (bad-signature, stale-timestamp, too-large)',
      labelNames: ['service', 'result'],
      registers: [registry],
    }),
    kickDeadLetters: new BoundLabelsCounter({
      name: 'kickstand_kick_dead_letters_total',
      help: 'Correctly signed Kick deliveries that could not be used and were kept as dead letters',
      labelNames: ['service', 'reason'],
      registers: [registry],
    }),
    kickReplies: new BoundLabelsCounter({
      name: 'kickstand_kick_replies_total',
      help: 'Chat replies by sender kind (bot-account, streamer-bot, streamer-user) and result (sent, failed, dropped)',
      labelNames: ['service', 'sender', 'result'],
      registers: [registry],
    }),
    webhookSpoolBytes: new Gauge({
      name: 'kickstand_webhook_spool_bytes',
      help: "Bytes in the webhook door's spool, waiting to be forwarded to Kafka",
      labelNames: ['service'],
      registers: [registry],
    }),
  };
  return metrics;
}
