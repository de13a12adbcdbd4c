import { appendFile, readdir, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { createTempDirs } from '../testing/temp-dirs';
import { createSpool, encodeSpoolRecord, SpoolFullError, type Spool, type SpoolRecord } from './spool';
import { nodeSpoolDisk, type SpoolDisk } from './spool-disk';

/** The real disk, counting fsyncs and failing them on demand. */
function testDisk() {
  const state = { syncs: 0, failSyncs: false };
  const disk: SpoolDisk = {
    ...nodeSpoolDisk,
    async openAppend(file) {
      const real = await nodeSpoolDisk.openAppend(file);
      return {
        append: (bytes) => real.append(bytes),
        async sync() {
          if (state.failSyncs) throw new Error('EIO: the disk failed');
          state.syncs++;
          await real.sync();
        },
        close: () => real.close(),
      };
    },
  };
  return { disk, state };
}

const record = (n: number, key = 'channel-1'): SpoolRecord => ({
  topic: 'chat.received',
  key,
  value: new Uint8Array([n, n + 1, n + 2]),
});

const plain = (records: SpoolRecord[]) => records.map(({ topic, key, value }) => ({ topic, key, value: [...value] }));

describe('spool', () => {
  const dirs = createTempDirs('spool');
  let dir: string;
  const opened: Spool[] = [];

  beforeEach(async () => {
    dir = await dirs.make();
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((spool) => spool.close()));
    await dirs.removeAll();
  });

  async function openSpool(options: Partial<Parameters<typeof createSpool>[0]> = {}): Promise<Spool> {
    const spool = createSpool({ dir, maxBytes: 1024 * 1024, ...options });
    await spool.open();
    opened.push(spool);
    return spool;
  }

  async function reopen(spool: Spool, options: Partial<Parameters<typeof createSpool>[0]> = {}): Promise<Spool> {
    await spool.close();
    return openSpool(options);
  }

  test('when records are appended, then they are read back in append order, whole', async () => {
    // Arrange
    const spool = await openSpool();
    // Act
    await spool.append(record(1));
    await spool.append(record(2, 'channel-2'));
    await spool.append(record(3));
    // Assert
    expect(plain(await spool.read(10))).toEqual([
      { topic: 'chat.received', key: 'channel-1', value: [1, 2, 3] },
      { topic: 'chat.received', key: 'channel-2', value: [2, 3, 4] },
      { topic: 'chat.received', key: 'channel-1', value: [3, 4, 5] },
    ]);
    expect(spool.isEmpty()).toBe(false);
  });

  test('when appends arrive together, then one fsync makes the whole batch durable', async () => {
    // Arrange
    const { disk, state } = testDisk();
    const spool = await openSpool({ disk });
    // Act
    await Promise.all([1, 2, 3, 4, 5].map((n) => spool.append(record(n))));
    // Assert
    expect(state.syncs).toBe(1);
    expect(await spool.read(10)).toHaveLength(5);
  });

  test('when the process stops, then the records held are read again after a restart', async () => {
    // Arrange
    const first = await openSpool();
    await first.append(record(1));
    await first.append(record(2));
    // Act
    const second = await reopen(first);
    // Assert
    expect(plain(await second.read(10)).map((each) => each.value[0])).toEqual([1, 2]);
  });

  test('when the last record was torn by a crash, then it is cut off on reload and the whole ones are kept', async () => {
    // Arrange: two whole records, then half of a third (a write the crash interrupted)
    const first = await openSpool();
    await first.append(record(1));
    await first.append(record(2));
    await first.close();
    const [segment] = (await readdir(dir)).filter((name) => name.endsWith('.spool'));
    const file = path.join(dir, segment ?? '');
    const wholeSize = (await stat(file)).size;
    await appendFile(file, encodeSpoolRecord(record(3)).subarray(0, 9));
    // Act
    const second = await openSpool();
    await second.append(record(4));
    // Assert
    expect((await stat(file)).size).toBe(wholeSize);
    expect(plain(await second.read(10)).map((each) => each.value[0])).toEqual([1, 2, 4]);
  });

  test('when a record is corrupt (its checksum fails), then the segment is cut before it on reload', async () => {
    // Arrange
    const first = await openSpool();
    await first.append(record(1));
    await first.close();
    const [segment] = (await readdir(dir)).filter((name) => name.endsWith('.spool'));
    const corrupt = encodeSpoolRecord(record(2));
    corrupt.writeUInt8(corrupt.readUInt8(corrupt.length - 1) ^ 0xff, corrupt.length - 1);
    await appendFile(path.join(dir, segment ?? ''), corrupt);
    // Act
    const second = await openSpool();
    // Assert
    expect(plain(await second.read(10)).map((each) => each.value[0])).toEqual([1]);
  });

  test('when records are forwarded, then they are not read again, even after a restart', async () => {
    // Arrange
    const first = await openSpool();
    for (const n of [1, 2, 3]) await first.append(record(n));
    const [, second] = await first.read(2);
    // Act
    await first.forwarded(second!.end);
    const again = await reopen(first);
    // Assert
    expect(plain(await again.read(10)).map((each) => each.value[0])).toEqual([3]);
  });

  test('when everything is forwarded, then the spool is empty and its segments are deleted', async () => {
    // Arrange
    const spool = await openSpool();
    for (const n of [1, 2]) await spool.append(record(n));
    const records = await spool.read(10);
    // Act
    await spool.forwarded(records[1]!.end);
    // Assert
    expect(spool.isEmpty()).toBe(true);
    expect(spool.heldBytes()).toBe(0);
    expect((await readdir(dir)).filter((name) => name.endsWith('.spool'))).toEqual([]);
    await spool.append(record(5));
    expect(plain(await spool.read(10)).map((each) => each.value[0])).toEqual([5]);
  });

  test('when segments rotate, then records are read across them in order and forwarded ones are deleted', async () => {
    // Arrange: a segment is full with one record, so each append starts a new one
    const size = encodeSpoolRecord(record(1)).length;
    const spool = await openSpool({ segmentBytes: size });
    for (const n of [1, 2, 3, 4]) await spool.append(record(n));
    const segmentsBefore = (await readdir(dir)).filter((name) => name.endsWith('.spool'));
    // Act
    const read = await spool.read(10);
    await spool.forwarded(read[1]!.end);
    // Assert
    expect(segmentsBefore).toHaveLength(4);
    expect(read.map((each) => each.value[0])).toEqual([1, 2, 3, 4]);
    expect((await readdir(dir)).filter((name) => name.endsWith('.spool'))).toHaveLength(2);
    expect(plain(await spool.read(10)).map((each) => each.value[0])).toEqual([3, 4]);
  });

  test('when an append would go over the size bound, then it is refused with SpoolFullError, until some is forwarded', async () => {
    // Arrange
    const size = encodeSpoolRecord(record(1)).length;
    const spool = await openSpool({ maxBytes: size * 2 });
    await spool.append(record(1));
    await spool.append(record(2));
    // Act
    const refused = spool.append(record(3));
    // Assert
    await expect(refused).rejects.toBeInstanceOf(SpoolFullError);
    const [first] = await spool.read(1);
    await spool.forwarded(first!.end);
    await expect(spool.append(record(3))).resolves.toBeUndefined();
  });

  test('when the disk fails an fsync, then that batch is refused, and later batches are read after the earlier ones', async () => {
    // Arrange
    const { disk, state } = testDisk();
    const spool = await openSpool({ disk });
    await spool.append(record(1));
    // Act
    state.failSyncs = true;
    const failed = spool.append(record(2));
    await expect(failed).rejects.toThrow('EIO: the disk failed');
    state.failSyncs = false;
    await spool.append(record(3));
    // Assert: the failed batch's bytes may be in the first segment, but they are never read
    expect(plain(await spool.read(10)).map((each) => each.value[0])).toEqual([1, 3]);
    const again = await reopen(spool);
    expect(plain(await again.read(10)).map((each) => each.value[0])).toEqual([1, 3]);
  });

  test('when a segment file lost bytes the cursor had passed, then reload reads nothing twice and new records follow', async () => {
    // Arrange: the cursor says "forwarded up to the second record", but the file lost its end
    const spool = await openSpool();
    for (const n of [1, 2]) await spool.append(record(n));
    await spool.append(record(3));
    const read = await spool.read(10);
    await spool.forwarded(read[1]!.end);
    await spool.close();
    const [segment] = (await readdir(dir)).filter((name) => name.endsWith('.spool'));
    await truncate(path.join(dir, segment ?? ''), read[0]!.end.offset);
    // Act
    const again = await openSpool();
    await again.append(record(4));
    // Assert
    expect(plain(await again.read(10)).map((each) => each.value[0])).toEqual([4]);
  });
});
