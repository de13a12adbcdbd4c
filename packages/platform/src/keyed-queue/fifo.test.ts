import { Fifo } from './fifo';

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
});
