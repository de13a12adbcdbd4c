/**
 * How long a counted command.executed is still recognised when the bus delivers the same message
 * again (its seen key in the counted set, repository.ts). Only a redelivery of that very message
 * needs it: bot-runner gives each publish a fresh event id, so nothing else reuses a key.
 *
 * The in-process bus is not durable: it delivers a message again only while a failing handler is
 * retried (5 attempts, backoff up to 5 s: seconds in all), so minutes are plenty.
 */
export const inProcessRedeliveryWindowSeconds = 10 * 60;

/**
 * Kafka delivers again what a consumer group had not committed when it resumes, however long it
 * was stopped: the window is as long as auth's group may stay stopped (KAFKA_REDELIVERY_WINDOW).
 */
export const defaultKafkaRedeliveryWindowSeconds = 3 * 24 * 3600;

/** The window of the bus in use: Kafka when brokers are configured, else the in-process bus. */
export function redeliveryWindowSeconds(bus: { kafkaBrokers?: readonly string[]; kafkaWindowSeconds: number }): number {
  return bus.kafkaBrokers && bus.kafkaBrokers.length > 0 ? bus.kafkaWindowSeconds : inProcessRedeliveryWindowSeconds;
}
