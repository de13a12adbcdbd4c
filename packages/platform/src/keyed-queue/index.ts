export { createKeyedQueue, type KeyedQueue } from './keyed-queue';
