import { createBatcher } from './batcher';

/** A sendBatch whose calls are recorded and finished by the test. */
function recordingSender() {
  const calls: { items: string[]; finish: (error?: Error) => void }[] = [];
  const sendBatch = (items: string[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ items, finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { calls, sendBatch };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createBatcher', () => {
  test('when messages are sent in one turn of the event loop, then they leave in one request, in order', async () => {
    const { calls, sendBatch } = recordingSender();
    const batcher = createBatcher({ sendBatch });
    const sent = [batcher.send('a'), batcher.send('b'), batcher.send('c')];
    await nextTurn();
    expect(calls.map((call) => call.items)).toEqual([['a', 'b', 'c']]);
    calls[0]?.finish();
    await expect(Promise.all(sent)).resolves.toEqual([undefined, undefined, undefined]);
  });

  test('when messages are sent while a request is in flight, then they wait for it and leave together in the next one', async () => {
    const { calls, sendBatch } = recordingSender();
    const batcher = createBatcher({ sendBatch });
    const first = batcher.send('a');
    await nextTurn();
    const later = [batcher.send('b'), batcher.send('c')];
    await nextTurn();
    expect(calls.map((call) => call.items)).toEqual([['a']]);
    calls[0]?.finish();
    await first;
    await nextTurn();
    expect(calls.map((call) => call.items)).toEqual([['a'], ['b', 'c']]);
    calls[1]?.finish();
    await Promise.all(later);
  });

  test('when a request fails, then the messages it carried reject with its error and the next request goes on', async () => {
    const { calls, sendBatch } = recordingSender();
    const batcher = createBatcher({ sendBatch });
    const failing = [batcher.send('a'), batcher.send('b')];
    await nextTurn();
    const next = batcher.send('c');
    calls[0]?.finish(new Error('broker down'));
    await expect(failing[0]).rejects.toThrow('broker down');
    await expect(failing[1]).rejects.toThrow('broker down');
    await nextTurn();
    expect(calls.map((call) => call.items)).toEqual([['a', 'b'], ['c']]);
    calls[1]?.finish();
    await expect(next).resolves.toBeUndefined();
  });

  test('when more messages wait than one request may carry, then they leave in requests of at most that many, in order', async () => {
    const { calls, sendBatch } = recordingSender();
    const batcher = createBatcher({ sendBatch, maxBatch: 2 });
    const sent = ['a', 'b', 'c', 'd', 'e'].map((item) => batcher.send(item));
    await nextTurn();
    calls[0]?.finish();
    await nextTurn();
    calls[1]?.finish();
    await nextTurn();
    calls[2]?.finish();
    await Promise.all(sent);
    expect(calls.map((call) => call.items)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  test('when the batcher was idle, then a new message starts a request of its own again', async () => {
    const { calls, sendBatch } = recordingSender();
    const batcher = createBatcher({ sendBatch });
    const first = batcher.send('a');
    await nextTurn();
    calls[0]?.finish();
    await first;
    await nextTurn();
    const second = batcher.send('b');
    await nextTurn();
    calls[1]?.finish();
    await second;
    expect(calls.map((call) => call.items)).toEqual([['a'], ['b']]);
  });

  test('when a request succeeds for some items and fails for others, then each item gets its own outcome', async () => {
    const batcher = createBatcher<string>({
      sendBatch: async (items) => items.map((item) => (item === 'taken' ? new Error('duplicate') : undefined)),
    });
    const outcomes = await Promise.allSettled([batcher.send('a'), batcher.send('taken'), batcher.send('b')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes[1]).toEqual({ status: 'rejected', reason: new Error('duplicate') });
  });
});
