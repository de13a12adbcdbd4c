import { chmod, cp, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createFakeClock } from '../testing/fake-clock';
import { createTempDirs } from '../testing/temp-dirs';
import { createEmbeddedStore } from './embedded-store';
import { DuplicateKeyError, type Document } from './store';
import { storeContract, storeContractSweepIntervalMs } from './store.contract';

const dirs = createTempDirs('store');

storeContract(
  'embedded (NeDB)',
  async (clock) =>
    createEmbeddedStore({ dir: await dirs.make(), clock, sweepIntervalMs: storeContractSweepIntervalMs }),
  () => dirs.removeAll(),
);

interface Game extends Document {
  channel: string;
  hp: number;
  startedAt: Date;
  outbox: string[];
}

describe('embedded store on disk', () => {
  afterAll(() => dirs.removeAll());

  /** The permission bits of a path (0o600, 0o700, ...). */
  const modeOf = async (target: string) => (await stat(target)).mode & 0o777;

  test('when the umask would allow anyone to read, then the folder is still 0700 and every datafile 0600 (new, appended, compacted)', async () => {
    const previous = process.umask(0);
    try {
      const dir = path.join(await dirs.make(), 'auth');
      const store = await createEmbeddedStore({ dir });
      const users = store.collection<Document & { passwordHash: string }>('users');
      await users.insertOne({ _id: 'u1', passwordHash: '$argon2id$...' });
      expect(await modeOf(dir)).toBe(0o700);
      expect(await modeOf(path.join(dir, 'users.db'))).toBe(0o600);
      await store.close(); // compaction writes a new file
      expect(await modeOf(path.join(dir, 'users.db'))).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });

  test('when a data folder and datafile were made world-readable before, then opening the store makes them owner-only', async () => {
    const dir = path.join(await dirs.make(), 'auth');
    await mkdir(dir);
    await chmod(dir, 0o755);
    await writeFile(path.join(dir, 'users.db'), '{"_id":"u1","passwordHash":"x"}\n');
    await chmod(path.join(dir, 'users.db'), 0o644);
    const store = await createEmbeddedStore({ dir });
    expect(await store.collection('users').findOne({ _id: 'u1' })).toEqual({ _id: 'u1', passwordHash: 'x' });
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(path.join(dir, 'users.db'))).toBe(0o600);
    await store.close();
  });

  test('when the store is closed and reopened on the same directory, then what it wrote is there', async () => {
    const dir = await dirs.make();
    const first = await createEmbeddedStore({ dir });
    const games = first.collection<Game>('games');
    await games.createIndex({ fields: { channel: 1 }, unique: true });
    await games.insertOne({
      _id: 'g1',
      channel: 'c1',
      hp: 100,
      startedAt: new Date('2026-05-01T20:00:00Z'),
      outbox: [],
    });
    await games.updateOne({ _id: 'g1' }, { $inc: { hp: -30 }, $push: { outbox: 'hit' } });
    await games.insertOne({ _id: 'g2', channel: 'c2', hp: 1, startedAt: new Date('2026-05-01T21:00:00Z'), outbox: [] });
    await games.deleteOne({ _id: 'g2' });
    await first.close();

    const second = await createEmbeddedStore({ dir });
    const reopened = second.collection<Game>('games');
    expect(await reopened.find({})).toEqual([
      { _id: 'g1', channel: 'c1', hp: 70, startedAt: new Date('2026-05-01T20:00:00Z'), outbox: ['hit'] },
    ]);
    expect((await reopened.findOne({ _id: 'g1' }))?.startedAt).toBeInstanceOf(Date);
    // the unique index came back from the datafile, before any createIndex call
    await expect(
      reopened.insertOne({ channel: 'c1', hp: 1, startedAt: new Date(), outbox: [] }),
    ).rejects.toBeInstanceOf(DuplicateKeyError);
    await reopened.createIndex({ fields: { channel: 1 }, unique: true });
    await second.close();
  });

  test('when the store closes, then each datafile is compacted to one line per live document', async () => {
    const dir = await dirs.make();
    const store = await createEmbeddedStore({ dir });
    const counters = store.collection<Document & { n: number }>('counters');
    await counters.insertOne({ _id: 'c', n: 0 });
    for (let i = 0; i < 5; i += 1) await counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } });
    await counters.insertOne({ _id: 'gone', n: 0 });
    await counters.deleteOne({ _id: 'gone' });
    await store.close();

    expect(await readdir(dir)).toEqual(['counters.db']);
    const lines = (await readFile(path.join(dir, 'counters.db'), 'utf8')).split('\n').filter((line) => line !== '');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([{ _id: 'c', n: 5 }]);
  });

  test('when a write resolves, then its line is in the datafile already (nothing waits for close)', async () => {
    const dir = await dirs.make();
    const store = await createEmbeddedStore({ dir });
    const items = store.collection<Document & { n: number }>('items');
    await items.insertOne({ _id: 'a', n: 1 });
    await items.updateOne({ _id: 'a' }, { $inc: { n: 1 } });
    const lines = (await readFile(path.join(dir, 'items.db'), 'utf8')).split('\n').filter((line) => line !== '');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { _id: 'a', n: 1 },
      { _id: 'a', n: 2 },
    ]);
    await store.close();
  });

  test('when many writes run at once and the datafile is compacted meanwhile, then a copy taken without closing holds every one', async () => {
    const dir = await dirs.make();
    const store = await createEmbeddedStore({ dir, sweepIntervalMs: 5 });
    const items = store.collection<Document & { n: number }>('items');
    const ids = Array.from({ length: 100 }, (_, i) => `item-${i}`);
    await Promise.all(ids.map((id) => items.insertOne({ _id: id, n: 0 })));
    // 3,000 updates in rounds of 100 at once; the sweeper rewrites the file whenever 1,000 lines gathered
    for (let round = 0; round < 30; round++) {
      await Promise.all(ids.map((id) => items.updateOne({ _id: id }, { $inc: { n: 1 } })));
      if (round % 5 === 4) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(ids.slice(0, 33).map((id) => items.deleteOne({ _id: id })));
    const lines = (await readFile(path.join(dir, 'items.db'), 'utf8')).split('\n').filter(Boolean);
    expect(lines.length).toBeLessThan(100 + 3000 + 33); // it was compacted on the way

    // what a crash right now would leave behind
    const copy = await dirs.make();
    await cp(dir, copy, { recursive: true });
    const reopened = await createEmbeddedStore({ dir: copy });
    const found = await reopened.collection<Document & { n: number }>('items').find({});
    expect(found).toHaveLength(67);
    expect(found.every((doc) => doc.n === 30)).toBe(true);
    await reopened.close();
    await store.close();
  });

  test('when a large collection is compacted while writes go on, then a copy taken without closing loads every write and the indexes', async () => {
    const dir = await dirs.make();
    const store = await createEmbeddedStore({ dir, sweepIntervalMs: 5 });
    const lines = store.collection<Document & { userId: string; n: number }>('lines');
    await lines.createIndex({ fields: { userId: 1, n: 1 }, unique: true });
    const datafile = path.join(dir, 'lines.db');
    const lineCount = async () => (await readFile(datafile, 'utf8')).split('\n').filter(Boolean).length;
    // 1,500 documents: the rewrite serialises them in several chunks, yielding between them
    await Promise.all(
      Array.from({ length: 1500 }, (_, i) => lines.insertOne({ _id: `l${i}`, userId: `u${i % 50}`, n: i })),
    );
    let written = 1500 + 2; // and the two index lines
    const tenIds = (round: number) => Array.from({ length: 10 }, (_, k) => round * 10 + k);
    // rounds of inserts, updates and deletes go on until a compaction has shrunk the file (and a little after)
    for (let round = 0, compactedRounds = 0; compactedRounds < 5 && round < 300; round += 1) {
      await Promise.all([
        ...tenIds(round).map((i) => lines.insertOne({ _id: `new${i}`, userId: 'new', n: i })),
        ...tenIds(round).map((i) => lines.updateOne({ _id: `l${i % 1500}` }, { $set: { n: 100_000 + i } })),
        ...(round > 0 ? tenIds(round - 1).map((i) => lines.deleteOne({ _id: `new${i}` })) : []),
      ]);
      written += round > 0 ? 30 : 20;
      if (compactedRounds > 0 || (await lineCount()) < written) compactedRounds += 1;
    }
    expect(await lineCount()).toBeLessThan(written);

    const copy = await dirs.make();
    await cp(dir, copy, { recursive: true });
    // the indexes as the rewrite left them (NeDB rewrites the file again when it loads it)
    expect(
      (await readFile(path.join(copy, 'lines.db'), 'utf8'))
        .split('\n')
        .filter((line) => line.includes('$$indexCreated'))
        .map((line) => (JSON.parse(line) as { $$indexCreated: { fieldName: string } }).$$indexCreated.fieldName)
        .sort(),
    ).toEqual(['n,userId', 'userId']);
    const reopened = await createEmbeddedStore({ dir: copy });
    const copied = reopened.collection<Document & { userId: string; n: number }>('lines');
    const all = { sort: { _id: 1 } } as const;
    const live = await lines.find({}, all);
    expect(live).toHaveLength(1510);
    expect(await copied.find({}, all)).toEqual(live);
    const [taken] = live;
    await expect(
      copied.insertOne({ _id: 'dup', userId: taken?.userId ?? '', n: taken?.n ?? 0 }),
    ).rejects.toBeInstanceOf(DuplicateKeyError);
    await reopened.close();
    await store.close();
  });

  test('when a compound index is asked for, then its first field gets an index of its own, and only a unique one keeps the compound', async () => {
    const dir = await dirs.make();
    const store = await createEmbeddedStore({ dir });
    await store.collection('lines').createIndex({ fields: { userId: 1, at: -1 } });
    await store.collection('names').createIndex({ fields: { userId: 1, name: 1 }, unique: true });
    await store.close();
    const indexesIn = async (name: string) =>
      (await readFile(path.join(dir, `${name}.db`), 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { $$indexCreated?: { fieldName: string; unique?: boolean } })
        .flatMap((line) => (line.$$indexCreated ? [line.$$indexCreated] : []));
    expect(await indexesIn('lines')).toEqual([expect.objectContaining({ fieldName: 'userId' })]);
    expect(await indexesIn('names')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ fieldName: 'userId' }),
        expect.objectContaining({ fieldName: 'name,userId', unique: true }),
      ]),
    );
  });

  test('when the store is closed, then further calls are refused', async () => {
    const store = await createEmbeddedStore({ dir: await dirs.make() });
    await store.close();
    await store.close();
    await expect(store.collection('items').findOne({})).rejects.toThrow(/closed/);
    await expect(store.collection('items').insertOne({})).rejects.toThrow(/closed/);
    await expect(store.ping()).rejects.toThrow(/closed/);
  });

  test('when a collection name could escape the directory, then it is refused', async () => {
    const store = await createEmbeddedStore({ dir: await dirs.make() });
    expect(() => store.collection('../outside')).toThrow(/invalid collection name/);
    await store.close();
  });

  test('when a collection has two TTL rules, then a key held by a document expired under either rule can be inserted again', async () => {
    const clock = createFakeClock(new Date('2100-01-01T00:00:00Z'));
    const store = await createEmbeddedStore({ dir: await dirs.make(), clock });
    const claims = store.collection<Document & { claimedAt?: Date; seenAt?: Date; by: string }>('claims');
    await claims.createIndex({ fields: { claimedAt: 1 }, expireAfterSeconds: 60 });
    await claims.createIndex({ fields: { seenAt: 1 }, expireAfterSeconds: 120 });
    await claims.insertOne({ _id: 'by-claim', claimedAt: clock.now(), by: 'first' });
    await claims.insertOne({ _id: 'by-seen', seenAt: clock.now(), by: 'first' });

    clock.advance(61_000);
    await claims.insertOne({ _id: 'by-claim', claimedAt: clock.now(), by: 'second' });
    await expect(claims.insertOne({ _id: 'by-seen', seenAt: clock.now(), by: 'second' })).rejects.toBeInstanceOf(
      DuplicateKeyError,
    );

    clock.advance(60_000);
    await claims.insertOne({ _id: 'by-seen', seenAt: clock.now(), by: 'second' });
    expect(await claims.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'by-claim', claimedAt: new Date('2100-01-01T00:01:01Z'), by: 'second' },
      { _id: 'by-seen', seenAt: clock.now(), by: 'second' },
    ]);
    await store.close();
  });

  test('when more documents expired than the sweep deletes in one write, then it deletes them all and keeps the live ones', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const first = await createEmbeddedStore({ dir, clock, sweepIntervalMs: 20 });
    const sent = first.collection<Document & { sentAt: Date }>('sent');
    await sent.createIndex({ fields: { sentAt: 1 }, expireAfterSeconds: 60 });
    // 2,500 that expire (the sweep deletes 1,000 at a time), 10 that do not
    await Promise.all(
      Array.from({ length: 2510 }, (_, i) =>
        sent.insertOne({ _id: `s${i}`, sentAt: new Date(clock.now().getTime() + (i < 2500 ? i : 3_600_000)) }),
      ),
    );
    clock.advance(2500 + 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await first.close();

    const second = await createEmbeddedStore({ dir, clock: createFakeClock(new Date(0)) });
    const kept = await second.collection('sent').find({}, { sort: { _id: 1 } });
    expect(kept.map((doc) => doc._id)).toEqual(Array.from({ length: 10 }, (_, i) => `s${2500 + i}`));
    await second.close();
  });

  test('when expired documents were swept, then reopening the directory does not bring them back', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const first = await createEmbeddedStore({ dir, clock, sweepIntervalMs: 20 });
    const sessions = first.collection<Document & { seenAt: Date }>('sessions');
    await sessions.createIndex({ fields: { seenAt: 1 }, expireAfterSeconds: 60 });
    await sessions.insertOne({ _id: 's', seenAt: clock.now() });
    clock.advance(61_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await first.close();

    const second = await createEmbeddedStore({ dir, clock: createFakeClock() });
    expect(await second.collection('sessions').count()).toBe(0);
    await second.close();
  });
});
