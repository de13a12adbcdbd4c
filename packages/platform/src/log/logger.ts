import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

export interface LoggerSettings {
  level?: string;
  /** Readable lines for a person at a terminal; JSON otherwise (production, CI, log shippers). */
  pretty?: boolean;
}

// Secrets that must never reach a log line, wherever they appear in a logged object.
const redactPaths = [
  'password',
  '*.password',
  'passwordHash',
  '*.passwordHash',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'refreshToken',
  '*.refreshToken',
  'req.headers.authorization',
  'req.headers.cookie',
];

/**
 * One root logger per process; each service logs through `root.child({ service })`, so in
 * single-machine mode every line still says which service wrote it.
 */
export function createLogger({ level = 'info', pretty = false }: LoggerSettings = {}): Logger {
  const options: LoggerOptions = {
    level,
    base: undefined,
    redact: { paths: redactPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (pretty) {
    return pino({
      ...options,
      transport: {
        target: 'pino-pretty',
        options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
      },
    });
  }
  return pino(options);
}

/** A logger that writes nothing: the default in tests. */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
