import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The Prometheus metrics of this process. One registry per process: in single-machine mode every
 * service shares it and the `service` label tells them apart.
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
    busPublished: new Counter({
      name: 'kickstand_bus_messages_published_total',
      help: 'Messages published, by topic',
      labelNames: ['service', 'topic'],
      registers: [registry],
    }),
    busConsumed: new Counter({
      name: 'kickstand_bus_messages_consumed_total',
      help: 'Messages handled successfully, by topic and consumer group',
      labelNames: ['service', 'topic', 'group'],
      registers: [registry],
    }),
    busHandlerFailures: new Counter({
      name: 'kickstand_bus_handler_failures_total',
      help: 'Handler calls that threw (each attempt counts; retries follow)',
      labelNames: ['service', 'topic', 'group'],
      registers: [registry],
    }),
    busDeadLettered: new Counter({
      name: 'kickstand_bus_messages_dead_lettered_total',
      help: 'Messages sent to <group>.dlq after their last attempt failed',
      labelNames: ['service', 'topic', 'group'],
      registers: [registry],
    }),
    commandLatency: new Histogram({
      name: 'kickstand_command_latency_seconds',
      help: 'Time from the webhook receiving a chat message to the chat.send that answers it',
      labelNames: ['service'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [registry],
    }),
    botsRunning: new Gauge({
      name: 'kickstand_bots_running',
      help: 'Bots switched on',
      labelNames: ['service'],
      registers: [registry],
    }),
    kickDeliveries: new Counter({
      name: 'kickstand_kick_deliveries_total',
      help: 'Kick webhook deliveries: accepted, or refused (bad-signature, stale-timestamp, too-large)',
      labelNames: ['service', 'result'],
      registers: [registry],
    }),
    kickDeadLetters: new Counter({
      name: 'kickstand_kick_dead_letters_total',
      help: 'Correctly signed Kick deliveries that could not be used and were kept as dead letters',
      labelNames: ['service', 'reason'],
      registers: [registry],
    }),
    kickReplies: new Counter({
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
