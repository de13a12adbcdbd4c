import { Writable } from 'node:stream';
import { pino, type Level } from 'pino';
import type { Logger } from '../log';

export interface CapturedLog {
  log: Logger;
  /** Every line as written (JSON text). */
  lines: string[];
  /** Each line's `msg`, in order. */
  messages(): string[];
  /** Each line parsed, in order. */
  records(): Array<Record<string, unknown>>;
}

/** A logger that keeps every line it writes (trace level unless told), for assertions on logging. */
export function captureLog(level: Level = 'trace'): CapturedLog {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return {
    log: pino({ level }, sink),
    lines,
    messages: () => lines.map((line) => String((JSON.parse(line) as { msg?: unknown }).msg)),
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
