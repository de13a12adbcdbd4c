import { closeSync, openSync, writeSync } from 'node:fs';
import { endOfTask } from './end-of-task';

/**
 * The datafile's appends, grouped. NeDB appends every write with its own fs.appendFile (open,
 * write and close, each a trip through libuv's thread pool) and makes the next operation on the
 * collection wait for it. Here NeDB's lines go into a buffer instead; at the end of the task that
 * appended them (end-of-task.ts: once the microtasks queued so far have run) whatever gathered is
 * written with one write(2) to a file descriptor kept open. The write is synchronous, as pino's log lines are: appending a few kilobytes to the page
 * cache takes microseconds, less than handing it to another thread. Each store write still
 * resolves only once its lines are written (`written()`), as before.
 */
export interface Journal {
  append(text: string): void;
  /** Resolves once every line appended so far is written to the datafile. */
  written(): Promise<void>;
  /**
   * From now on, keeps a copy of every appended line (besides writing it to the datafile), for a
   * compaction that rewrites the file from a snapshot: the lines after the snapshot go after it.
   */
  startCapture(): void;
  /** Drops the copy (a compaction that failed). */
  stopCapture(): void;
  /**
   * Runs a task that replaces the datafile (a compaction) between two appends, then reopens the
   * file. Every line appended so far is in the old file when the task starts; the task gets the
   * lines captured since `startCapture()` ('' without one) and capturing stops.
   */
  replacing(task: (captured: string) => Promise<void>): Promise<void>;
  /** Writes what is buffered and closes the file. */
  close(): Promise<void>;
}

export function createJournal(filename: string, fileMode: number): Journal {
  let fd: number | undefined;
  let buffer = '';
  /** Lines appended since startCapture(); undefined when not capturing. */
  let captured: string[] | undefined;
  /** The append that will take the buffer (not started yet). */
  let next: Promise<void> | undefined;
  /** The last append started: it holds every line no longer in the buffer. */
  let latest: Promise<void> = Promise.resolve();
  // appends and file replacements run one at a time, in order
  let chain: Promise<unknown> = Promise.resolve();
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const run = chain.then(task, task);
    chain = run.catch(() => undefined);
    return run;
  };
  const closeFile = () => {
    const open = fd;
    fd = undefined;
    if (open !== undefined) closeSync(open);
  };
  const flush = async () => {
    next = undefined;
    const data = Buffer.from(buffer, 'utf8');
    buffer = '';
    if (data.length === 0) return;
    try {
      fd ??= openSync(filename, 'a', fileMode);
      for (let offset = 0; offset < data.length;) offset += writeSync(fd, data, offset);
    } catch (error) {
      try {
        closeFile();
      } catch {
        // the write failed already; that is the error to report
      }
      throw error;
    }
  };
  return {
    append(text) {
      buffer += text;
      captured?.push(text);
    },
    written() {
      if (buffer === '') return latest;
      if (!next) {
        // the writes of this task go out together
        next = serially(() => endOfTask().then(flush));
        latest = next;
      }
      return next;
    },
    startCapture() {
      captured = [];
    },
    stopCapture() {
      captured = undefined;
    },
    replacing(task) {
      return serially(async () => {
        // the old file stays complete until the new one replaces it (a crash in between keeps it);
        // a pending append then finds the buffer empty
        await flush();
        closeFile();
        const lines = (captured ?? []).join('');
        captured = undefined;
        await task(lines);
      });
    },
    close() {
      return serially(async () => {
        if (buffer !== '') await flush();
        closeFile();
      });
    },
  };
}
