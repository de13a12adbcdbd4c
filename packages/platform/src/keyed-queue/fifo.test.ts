import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Fifo } from './fifo';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

describe('Fifo', () => {
  test('when items are shifted past the point where the front is cut off, then the rest still come out in order', () => {
    const fifo = new Fifo<number>();
    for (let i = 0; i < 3000; i++) fifo.push(i);
    const out: number[] = [];
    for (let item = fifo.peek(); item !== undefined; item = fifo.peek()) {
      out.push(item);
      fifo.shift();
      if (item === 1500) fifo.push(3000);
    }
    expect(out).toEqual(Array.from({ length: 3001 }, (_, i) => i));
    expect(fifo.size).toBe(0);
  });

  test('when an item is shifted while others wait behind it, then the queue no longer holds it', async () => {
    const fifo = new Fifo<object>();
    const shifted = (() => {
      const item = { name: 'first' };
      fifo.push(item);
      fifo.push({ name: 'second' });
      return new WeakRef(item);
    })();
    fifo.shift();
    // a WeakRef's target is kept until the current job ends
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(shifted.deref()).toBeUndefined();
    expect(fifo.peek()).toEqual({ name: 'second' });
  });
});
