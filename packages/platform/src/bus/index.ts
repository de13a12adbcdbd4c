import type * as KafkaAdapter from './kafka-bus';
import type { KafkaBus, KafkaBusOptions } from './kafka-bus';
import type { TopicRegistry } from './bus';

export {
  backoffMs,
  deadLetterTopic,
  defaultRetryPolicy,
  instanceGroup,
  isInstanceGroup,
  kafkaGroupId,
  type Bus,
  type DeadLetter,
  type DeliveryInfo,
  type MessageHandler,
  type RetryPolicy,
  type Subscription,
  type TopicName,
  type TopicRegistry,
} from './bus';
export { createInProcessBus, type InProcessBus, type InProcessBusOptions } from './in-process-bus';
export { deadLetterHeaders } from './dead-letter-headers';
export type { KafkaBus, KafkaBusOptions, KafkaConsumerTuning } from './kafka-bus';
export * from './topics';
export {
  createSpool,
  SpoolFullError,
  type Spool,
  type SpoolOptions,
  type SpoolPosition,
  type SpoolRecord,
  type SpooledRecord,
} from './spool';
export { nodeSpoolDisk, type AppendFile, type SpoolDisk } from './spool-disk';
export {
  createSpooledPublisher,
  type PublishedTo,
  type SpooledPublisher,
  type SpooledPublisherOptions,
} from './spooled-publisher';
export { lockSpoolDir, type SpoolLock, type SpoolLockOptions } from './spool-lock';

/**
 * The Kafka adapter (kafka-bus.ts), loaded on first use: kafkajs is ~140 modules (~13 MB more
 * resident memory while they load, ~3 MB once collected) that a process on the in-process bus
 * (single-machine mode) never needs; the MongoDB adapter is loaded the same way (store/index.ts).
 */
export function createKafkaBus<R extends TopicRegistry>(options: KafkaBusOptions<R>): Promise<KafkaBus<R>> {
  // a require, not import(): jest runs tests in a vm context without dynamic import (store/mongo-driver.ts)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const adapter = require('./kafka-bus') as typeof KafkaAdapter;
  return adapter.createKafkaBus(options);
}
