export { instrumentBus } from './instrument-bus';
export { processMetrics, type Metrics } from './metrics';
