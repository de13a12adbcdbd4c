import { createSilentLogger } from '../log';
import { createEmbeddedStore, type Store } from '../store';
import { createTempDirs } from '../testing/temp-dirs';
import { createOutboxRelay, type OutboxDocument } from './outbox-relay';

interface Entry {
  id: string;
  text: string;
}
interface Doc extends OutboxDocument<Entry> {
  version: number;
}

const dirs = createTempDirs('outbox');
let store: Store;

beforeEach(async () => {
  store = await createEmbeddedStore({ dir: await dirs.make() });
});

afterEach(async () => {
  await store.close();
  await dirs.removeAll();
});

/** A relay over the `docs` collection whose bus records what it takes, or refuses while `isDown`. */
function aRelay() {
  const docs = store.collection<Doc>('docs');
  const bus = { published: [] as string[], isDown: false };
  const relay = createOutboxRelay<Doc, Entry>({
    collection: docs,
    idField: 'id',
    publish: async (doc, entry) => {
      if (bus.isDown) throw new Error('bus down');
      bus.published.push(`${doc._id}:${entry.text}@v${doc.version}`);
    },
    log: createSilentLogger(),
    name: 'test',
  });
  return { docs, bus, relay };
}

describe('createOutboxRelay', () => {
  test('when a document holds entries, then flush publishes them in order and empties the outbox', async () => {
    const { docs, bus, relay } = aRelay();
    await docs.insertOne({
      _id: 'u1',
      version: 3,
      outbox: [
        { id: 'e1', text: 'one' },
        { id: 'e2', text: 'two' },
      ],
    });

    await relay.flush('u1');

    expect(bus.published).toEqual(['u1:one@v3', 'u1:two@v3']);
    expect((await docs.findOne({ _id: 'u1' }))?.outbox).toEqual([]);
  });

  test('when the bus is down, then the entries stay and a later flushAll publishes each once', async () => {
    const { docs, bus, relay } = aRelay();
    await docs.insertOne({ _id: 'u1', version: 1, outbox: [{ id: 'e1', text: 'one' }] });
    await docs.insertOne({ _id: 'u2', version: 1, outbox: [{ id: 'e2', text: 'two' }] });
    await docs.insertOne({ _id: 'u3', version: 1, outbox: [] });
    bus.isDown = true;

    await relay.flush('u1');
    expect((await docs.findOne({ _id: 'u1' }))?.outbox).toEqual([{ id: 'e1', text: 'one' }]);

    bus.isDown = false;
    await relay.flushAll();
    await relay.flushAll();

    expect(bus.published.sort()).toEqual(['u1:one@v1', 'u2:two@v1']);
    expect(await docs.count({ 'outbox.0': { $exists: true } })).toBe(0);
  });

  test('when publishFrom is given the document as written, then it publishes that outbox and says whether all went', async () => {
    const { docs, bus, relay } = aRelay();
    const written = await docs.insertOne({ _id: 'u1', version: 7, outbox: [{ id: 'e1', text: 'one' }] });

    expect(await relay.publishFrom(written)).toBe(true);
    bus.isDown = true;
    const next = await docs.findOneAndUpdate(
      { _id: 'u1' },
      { $set: { version: 8 }, $push: { outbox: { id: 'e2', text: 'two' } } },
    );
    expect(await relay.publishFrom(next!)).toBe(false);

    expect(bus.published).toEqual(['u1:one@v7']);
    expect((await docs.findOne({ _id: 'u1' }))?.outbox).toEqual([{ id: 'e2', text: 'two' }]);
  });

  test('when two flushes of one document run at once, then each entry is published once', async () => {
    const { docs, bus, relay } = aRelay();
    await docs.insertOne({
      _id: 'u1',
      version: 1,
      outbox: [
        { id: 'e1', text: 'one' },
        { id: 'e2', text: 'two' },
      ],
    });

    await Promise.all([relay.flush('u1'), relay.flush('u1'), relay.flushAll()]);

    expect(bus.published).toEqual(['u1:one@v1', 'u1:two@v1']);
  });

  test('when start is awaited, then what was pending has been published', async () => {
    const { docs, bus, relay } = aRelay();
    await docs.insertOne({ _id: 'u1', version: 1, outbox: [{ id: 'e1', text: 'left by a crash' }] });

    await relay.start();
    relay.stop();

    expect(bus.published).toEqual(['u1:left by a crash@v1']);
  });
});
