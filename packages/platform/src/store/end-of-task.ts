/**
 * When the embedded store writes what a task appended (journal.ts, segment-files.ts): once the
 * microtasks queued so far have run, i.e. at the end of the task that appended (an I/O callback
 * and the promise continuations it set off), not on the next turn of the event loop.
 *
 * Why not the next turn (setImmediate, as before): every write of the store resolves only once its
 * lines are written, and a handler that awaits one (bot-runner's count, kick-link's send claim)
 * holds its bus partition meanwhile. Waiting for the next turn made each such write cost the rest
 * of the turn, every other I/O callback ready then, so a command queued behind k others in its
 * partition waited k turns: the reply's broad tail at 1,000 msg/s (docs/performance.md, "Where the
 * reply latency goes"). Lines appended by one task at the same depth (a batch of deliveries each
 * claiming its message id) still go out together, with one write(2).
 */
export function endOfTask(): Promise<void> {
  return new Promise<void>((resolve) => queueMicrotask(resolve));
}
