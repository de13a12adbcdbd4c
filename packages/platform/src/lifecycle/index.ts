export {
  connectPlatform,
  createBusFromConfig,
  type ConnectOptions,
  type ConnectedPlatform,
  type PlatformDeps,
} from './connect-platform';
export { runProcess, type ProcessHost, type ProcessOptions } from './run-process';
export { isPrettyLogging, runServiceProcess, startServiceProcess, type ServiceProcessOptions } from './run-service';
export { closeServer, listen } from '../http/listen';
export { startHttpService, type RunningService, type Service, type SocketIoEntry } from './start-http-service';
export { platformReadiness, type ReadinessNeed } from './readiness';
export { claimDataDir, pidFilePath, runningPid } from './data-dir-lock';
export { startMetricsServer, type MetricsServer } from './metrics-server';
