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
export {
  createKafkaBus,
  deadLetterHeaders,
  type KafkaBus,
  type KafkaBusOptions,
  type KafkaConsumerTuning,
} from './kafka-bus';
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
