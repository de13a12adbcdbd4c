import { z } from 'zod';

const durationUnits: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "86400" (seconds) or a number with a unit: "90s", "15m", "24h", "7d". */
export const durationSecondsSchema = z
  .string()
  .trim()
  .regex(/^\d+\s*[smhd]?$/, 'seconds, or a number with s, m, h or d (e.g. 24h)')
  .transform((value) => {
    const match = /^(\d+)\s*([smhd]?)$/.exec(value);
    return Number(match?.[1]) * (durationUnits[match?.[2] || 's'] ?? 1);
  })
  .pipe(z.number().int().positive('must be more than 0 seconds'));

/**
 * How long a consumer that counts a message once per event id must still recognise a counted one
 * when the bus delivers the same message again (auth's day counts, commands' usage per command).
 * Only a redelivery of that very message needs it: publishers give each message a fresh event id.
 *
 * The in-process bus is not durable: it delivers a message again only while a failing handler is
 * retried (defaultRetryPolicy: 5 attempts, waits of 0.2 to 5 s, ~3 s in all), so two minutes are
 * forty times that. Each counted id is a claim held for the window (~28 bytes on the embedded
 * store, two services at the rate of the bot's answers): 10 minutes cost ~6.7 MB at 200 answers a
 * second, 2 minutes ~1.3 MB (docs/performance.md, session of 2026-11-28 06:00 UTC).
 */
export const inProcessRedeliveryWindowSeconds = 2 * 60;

/**
 * Kafka delivers again what a consumer group had not committed when it resumes, however long it
 * was stopped: the window is as long as the group may stay stopped (KAFKA_REDELIVERY_WINDOW).
 */
export const defaultKafkaRedeliveryWindowSeconds = 3 * 24 * 3600;

/** The window of the bus in use: Kafka when brokers are configured, else the in-process bus. */
export function redeliveryWindowSeconds(bus: { kafkaBrokers?: readonly string[]; kafkaWindowSeconds: number }): number {
  return bus.kafkaBrokers && bus.kafkaBrokers.length > 0 ? bus.kafkaWindowSeconds : inProcessRedeliveryWindowSeconds;
}

/** The setting of a service that counts messages once per event id (used with KAFKA_BROKERS only). */
export const redeliveryWindowSettingsSchema = z.object({
  /**
   * With Kafka: how long a counted message is still recognised if Kafka delivers it again, i.e.
   * how long the service's consumer group may stay stopped. Ignored with the in-process bus (2 minutes).
   */
  KAFKA_REDELIVERY_WINDOW: durationSecondsSchema.default(defaultKafkaRedeliveryWindowSeconds),
});
