/**
 * When the embedded store writes what a task appended (journal.ts, segment-files.ts): once the
 * microtasks queued so far have run, i.e. at the end of the task that appended (an I/O callback
 * and the promise continuations it set off), not on the next turn of the event loop.
 *
 * Why not the next turn (setImmediate, as before): every write of the store resolves only once its
 * lines are written, and a handler that awaits one (bot-runner's count, kick-link's send claim,
 * realtime's chat line) holds its bus partition meanwhile. Waiting for the next turn made each such
 * write cost the rest of the turn, every other I/O callback ready then, so a command queued behind
 * k others in its partition waited k turns: the reply's broad tail at 1,000 msg/s
 * (docs/performance.md, "Where the reply latency goes"). Lines appended by one task at the same
 * depth (a batch of deliveries each claiming its message id) still go out together, with one write(2).
 *
 * A loop awaiting one write after another used to yield to the event loop at every write; it would
 * now run to its end in one task. So at most `maxWritesPerTurn` writes a turn go out at the end of
 * their task; past that, until the next turn, they wait for it as before (and the loop yields).
 */
export const maxWritesPerTurn = 64;

let writesThisTurn = 0;
let isCountReset = false;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function endOfTask(): Promise<void> {
  if (writesThisTurn >= maxWritesPerTurn) return nextTurn();
  writesThisTurn++;
  if (!isCountReset) {
    isCountReset = true;
    // queued before any write that waits for the next turn, so the count starts over before they run
    setImmediate(() => {
      writesThisTurn = 0;
      isCountReset = false;
    });
  }
  return new Promise<void>((resolve) => queueMicrotask(resolve));
}
