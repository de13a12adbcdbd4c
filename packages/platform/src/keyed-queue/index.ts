export { createKeyedQueue, type KeyedQueue } from './keyed-queue';
export { Fifo } from './fifo';
