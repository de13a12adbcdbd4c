export { createBatcher, type BatcherOptions } from './batcher';
export { createPeriodicFlush, type PeriodicFlush } from './periodic-flush';
export { inSlices } from './slices';
