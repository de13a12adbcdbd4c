import { open, stat } from 'node:fs/promises';

/** Where a log file ends now, to count what a phase wrote. */
export async function logSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

export interface LogCount {
  lines: number;
  bytes: number;
  /** pino levels 40 (warn) and above. */
  warnings: number;
  errors: number;
  /** A few of the warning/error messages, to say what went wrong. */
  samples: string[];
}

/** Counts the JSON log lines written since `from` (pino: one object per line, `level` a number). */
export async function countLogLines(file: string, from: number): Promise<LogCount> {
  const end = await logSize(file);
  const count: LogCount = { lines: 0, bytes: end - from, warnings: 0, errors: 0, samples: [] };
  if (end <= from) return count;
  const handle = await open(file, 'r');
  try {
    const chunkSize = 1 << 20;
    let carry = '';
    for (let position = from; position < end; position += chunkSize) {
      const buffer = Buffer.alloc(Math.min(chunkSize, end - position));
      await handle.read(buffer, 0, buffer.length, position);
      const lines = (carry + buffer.toString('utf8')).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) countLine(line, count);
    }
    if (carry) countLine(carry, count);
  } finally {
    await handle.close();
  }
  return count;
}

function countLine(line: string, count: LogCount): void {
  if (!line.trim()) return;
  count.lines++;
  const level = Number(/"level":(\d+)/.exec(line)?.[1] ?? 0);
  if (level >= 50) count.errors++;
  else if (level >= 40) count.warnings++;
  if (level >= 40 && count.samples.length < 5) {
    const msg = /"msg":"([^"]*)"/.exec(line)?.[1] ?? line.slice(0, 160);
    if (!count.samples.includes(msg)) count.samples.push(msg);
  }
}
