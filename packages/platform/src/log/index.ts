export { createLogger, createSilentLogger, type Logger, type LoggerSettings } from './logger';
