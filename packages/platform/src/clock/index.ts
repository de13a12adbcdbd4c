export { type Clock, systemClock } from './clock';
export { messageTimeMaxSkewMs, messageTimeMs, type MessageTimes } from './message-time';
