import { createFakeClock } from '../testing/fake-clock';
import { createTempDirs } from '../testing/temp-dirs';
import { createEmbeddedStore } from './embedded-store';
import { maxWritesPerTurn } from './end-of-task';
import type { Document } from './store';

/**
 * The embedded store's writes resolve at the end of the task that made them, not on the next turn
 * of the event loop (end-of-task.ts): a handler awaiting several writes one after the other, as a
 * bus partition does with the commands queued in it, finishes them all before any other callback
 * of the loop runs. Checked against a setImmediate queued before the writes, the next turn.
 */

const dirs = createTempDirs('end-of-task');
afterAll(() => dirs.removeAll());

async function openStore() {
  return createEmbeddedStore({ dir: await dirs.make(), clock: createFakeClock(), sweepIntervalMs: 0 });
}

interface Count extends Document {
  count: number;
}

/** Resolves with what `work` recorded before the next turn of the event loop came. */
async function beforeNextTurn(work: (done: (what: string) => void) => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  let isNextTurn = false;
  const nextTurn = new Promise<void>((resolve) =>
    setImmediate(() => {
      isNextTurn = true;
      resolve();
    }),
  );
  await work((what) => {
    if (!isNextTurn) seen.push(what);
  });
  await nextTurn;
  return seen;
}

describe('embedded store writes at the end of the task', () => {
  test('when five counts are incremented one after the other, then every one is written before the next turn of the event loop', async () => {
    const store = await openStore();
    const counts = store.collection<Count>('command-counts');
    await counts.insertOne({ _id: 'warm-up', count: 0 }); // the collection's datafile is opened and loaded
    const seen = await beforeNextTurn(async (done) => {
      for (let i = 1; i <= 5; i++) {
        const doc = await counts.findOneAndUpdate(
          { _id: 'c' },
          { $inc: { count: 1 } },
          { upsert: true, returnDocument: 'after' },
        );
        done(`count ${doc?.count}`);
      }
    });
    expect(seen).toEqual(['count 1', 'count 2', 'count 3', 'count 4', 'count 5']);
    await store.close();
  });

  test('when claims are taken one after the other, then each is written before the next turn of the event loop', async () => {
    const store = await openStore();
    const claims = store.claimSet('sent-ids', { expireAfterSeconds: 600, dateField: 'at' });
    await claims.open();
    const seen = await beforeNextTurn(async (done) => {
      for (const id of ['a', 'b', 'c']) done(`${id} ${await claims.claim(id, new Date(0))}`);
    });
    expect(seen).toEqual(['a true', 'b true', 'c true']);
    await store.close();
  });
});

describe('the writes a turn may make at the end of their task', () => {
  test('when a loop awaits more writes than a turn allows, then the ones past the limit wait for the next turn', async () => {
    const store = await openStore();
    const counts = store.collection<Count>('loop');
    await counts.insertOne({ _id: 'warm-up', count: 0 });
    await new Promise<void>((resolve) => setImmediate(resolve)); // a turn of its own: the count starts from 0
    const seen = await beforeNextTurn(async (done) => {
      for (let i = 1; i <= maxWritesPerTurn + 5; i++) {
        await counts.insertOne({ _id: `d${i}`, count: i });
        done(`d${i}`);
      }
    });
    expect(seen).toHaveLength(maxWritesPerTurn);
    expect(seen.at(-1)).toBe(`d${maxWritesPerTurn}`);
    expect(await counts.count({})).toBe(maxWritesPerTurn + 6);
    await store.close();
  });
});
