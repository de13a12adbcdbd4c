export {
  ConfigError,
  blankAsUnset,
  booleanFlagSchema,
  brokerListSchema,
  defaultKafkaTimings,
  jwtPrivateKeySchema,
  kafkaSecurity,
  loadConfig,
  loadConfigOrExit,
  optionalString,
  platformConfigSchema,
  portSchema,
  type KafkaSecurity,
  type PlatformConfig,
} from './load-config';
export { defaultPorts, serviceNames, type ServiceName } from './service-catalog';
export {
  defaultKafkaRedeliveryWindowSeconds,
  durationSecondsSchema,
  inProcessRedeliveryWindowSeconds,
  redeliveryWindowSeconds,
  redeliveryWindowSettingsSchema,
} from './redelivery-window';
