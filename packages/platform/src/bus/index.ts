export {
  backoffMs,
  deadLetterTopic,
  defaultRetryPolicy,
  instanceGroup,
  isInstanceGroup,
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
