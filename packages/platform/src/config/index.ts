export {
  ConfigError,
  booleanFlagSchema,
  brokerListSchema,
  defaultKafkaTimings,
  jwtPrivateKeySchema,
  loadConfig,
  loadConfigOrExit,
  optionalString,
  platformConfigSchema,
  portSchema,
  type PlatformConfig,
} from './load-config';
export { defaultPorts, serviceNames, type ServiceName } from './service-catalog';
