export { type Clock, systemClock, wallClockMs } from './clock';
export { messageTimeMaxSkewMs, messageTimeMs, type MessageTimes } from './message-time';
