export { createLogger, createSilentLogger, type Logger, type LoggerSettings } from './logger';
export { readMemory, startMemoryLog, type MemoryReading } from './memory-log';
