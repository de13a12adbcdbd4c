import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import fs, { readdirSync } from 'node:fs';
import path from 'node:path';
import { createSilentLogger } from '../log/logger';
import { captureLog } from '../testing/capture-log';
import { createTempDirs } from '../testing/temp-dirs';
import { createSegmentFiles, type SegmentFiles, type SegmentFilesOptions } from './segment-files';

const dirs = createTempDirs('segments');
afterAll(() => dirs.removeAll());

/** The lines are JSON strings; anything else is a line cut short. */
function parseString(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

const line = (text: string) => `${JSON.stringify(text)}\n`;

/** Segment files on `dir` (made and read), with the writes they did: the segment each went to. */
async function openFiles(
  dir: string,
  more: Partial<SegmentFilesOptions> = {},
): Promise<{ files: SegmentFiles; writes: number[]; read: Array<[string, number]> }> {
  const writes: number[] = [];
  const read: Array<[string, number]> = [];
  const files = createSegmentFiles({
    dir,
    label: 'test log',
    log: createSilentLogger(),
    afterWrite: (seq) => writes.push(seq),
    ...more,
  });
  await files.open(parseString, (text, seq) => read.push([text, seq]));
  return { files, writes, read };
}

const contents = (dir: string, seq: number) => readFile(path.join(dir, `${String(seq).padStart(12, '0')}.log`), 'utf8');

describe('segment files (segment-files.ts)', () => {
  test('when lines are appended in one task, then they go out in one write at its end, which each append waits for', async () => {
    const dir = path.join(await dirs.make(), 'log');
    const { files, writes } = await openFiles(dir);
    const appends = [files.append(line('a')), files.append(line('b')), files.append(line('c'))];
    expect(readdirSync(dir)).toEqual([]); // nothing written in the turn of the appends (read without yielding)
    await Promise.all(appends);
    expect(writes).toEqual([0]);
    expect(await contents(dir, 0)).toBe('"a"\n"b"\n"c"\n');

    await files.append(line('d')); // a later task: a write of its own, to the same segment
    expect(writes).toEqual([0, 0]);
    expect(await contents(dir, 0)).toBe('"a"\n"b"\n"c"\n"d"\n');
    await files.close();
  });

  test('when the folder is made, then it and its segments are owner-only', async () => {
    const dir = path.join(await dirs.make(), 'log');
    const { files } = await openFiles(dir);
    await files.append(line('a'));
    await files.close();
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(dir, '000000000000.log'))).mode & 0o777).toBe(0o600);
  });

  test('when nothing was appended, then written() resolves without writing and no segment is made', async () => {
    const dir = await dirs.make();
    const { files, writes } = await openFiles(dir);
    await files.written();
    await files.close();
    expect(writes).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  test('when the folder has segments, then they are read oldest first by number, other files ignored, and appends begin a new one', async () => {
    const dir = await dirs.make();
    await writeFile(path.join(dir, '000000000010.log'), line('ten'));
    await writeFile(path.join(dir, '000000000002.log'), line('two a') + line('two b'));
    await writeFile(path.join(dir, '000000000001.log'), line('one'));
    await writeFile(path.join(dir, 'compaction.tmp'), line('temporary'));
    await writeFile(path.join(dir, '12.log'), line('misnamed'));
    const { files, read } = await openFiles(dir);
    expect(read).toEqual([
      ['one', 1],
      ['two a', 2],
      ['two b', 2],
      ['ten', 10],
    ]);
    expect(files.sealed()).toEqual([1, 2, 10]);

    await files.append(line('new'));
    await files.close();
    expect(await contents(dir, 10)).toBe(line('ten'));
    expect(await contents(dir, 11)).toBe(line('new'));
    expect(files.sealed()).toEqual([1, 2, 10, 11]);
  });

  test('when lines were cut short by a crash, then they are skipped and counted in one warning', async () => {
    const dir = await dirs.make();
    await writeFile(path.join(dir, '000000000000.log'), `${line('a')}"cut`);
    await writeFile(path.join(dir, '000000000001.log'), `${line('b')}\n${line('c')}"also cu`);
    const captured = captureLog('warn');
    const { files, read } = await openFiles(dir, { log: captured.log });
    expect(read.map(([text]) => text)).toEqual(['a', 'b', 'c']);
    expect(captured.records().map(({ msg, dir: where, unreadable }) => ({ msg, where, unreadable }))).toEqual([
      { msg: 'test log lines that could not be read were skipped', where: dir, unreadable: 2 },
    ]);
    await files.close();
  });

  test('when the current segment is sealed before a write, then the lines begin the next one', async () => {
    const dir = await dirs.make();
    let sealNext = false;
    const writes: number[] = [];
    const files: SegmentFiles = createSegmentFiles({
      dir,
      label: 'test log',
      log: createSilentLogger(),
      beforeWrite: () => {
        if (sealNext) files.sealCurrent();
      },
      afterWrite: (seq) => writes.push(seq),
    });
    await files.open(parseString, () => undefined);
    await files.append(line('a'));
    sealNext = true;
    await files.append(line('b'));
    await files.close();
    expect(writes).toEqual([0, 1]);
    expect([await contents(dir, 0), await contents(dir, 1)]).toEqual([line('a'), line('b')]);
    expect(files.sealed()).toEqual([0, 1]);
  });

  test('when a number is reserved for a segment written whole, then appends go after it, and it takes its place among the sealed', async () => {
    const dir = await dirs.make();
    const { files, writes } = await openFiles(dir);
    await files.append(line('a'));
    files.sealCurrent();
    const reserved = files.reserve();
    expect(reserved).toEqual({ seq: 1, file: path.join(dir, '000000000001.log') });
    await files.append(line('b')); // written while the reserved one is being made
    await writeFile(reserved.file, line('whole'));
    files.addSealed(reserved.seq);
    expect(files.sealed()).toEqual([0, 1]);
    files.delete(0);
    await files.close();
    expect(writes).toEqual([0, 2]);
    expect(files.sealed()).toEqual([1, 2]);
    expect(await readdir(dir)).toEqual(['000000000001.log', '000000000002.log']);

    const { read } = await openFiles(dir);
    expect(read).toEqual([
      ['whole', 1],
      ['b', 2],
    ]);
  });

  test('when a segment cannot be deleted, then a warning says so and it is no longer counted', async () => {
    const dir = await dirs.make();
    await writeFile(path.join(dir, '000000000000.log'), line('a'));
    const captured = captureLog('warn');
    const { files } = await openFiles(dir, { log: captured.log });
    await rm(path.join(dir, '000000000000.log'));
    await files.delete(0);
    expect(captured.messages()).toEqual(['could not delete a test log segment']);
    expect(files.sealed()).toEqual([]);
    await files.close();
  });

  test('when the log closes with appends pending, then they are written before it closes and resolve', async () => {
    const dir = await dirs.make();
    const { files, writes } = await openFiles(dir);
    const first = files.append(line('a'));
    const second = files.append(line('b'));
    await files.close();
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
    expect(writes).toEqual([0]);
    expect(await contents(dir, 0)).toBe('"a"\n"b"\n');
    expect(files.sealed()).toEqual([0]);
  });

  test('when the write fails, then the appends of that turn reject with its error, and so does a close that cannot write them', async () => {
    const dir = path.join(await dirs.make(), 'log');
    const { files } = await openFiles(dir);
    await rm(dir, { recursive: true }); // the segment cannot be created
    const appends = [files.append(line('a')), files.append(line('b'))];
    await expect(Promise.all(appends)).rejects.toThrow(/ENOENT/);
    // the lines are still unwritten: closing tries them again and says it could not
    await expect(files.close()).rejects.toThrow(/ENOENT/);
  });

  test('when a write fails part-way, then its segment is sealed, and the next lines begin a new one at the offsets they are told', async () => {
    const dir = await dirs.make();
    const { files } = await openFiles(dir);
    await files.append(line('a'));
    const realWriteSync = fs.writeSync;
    let calls = 0;
    // the first call writes 3 bytes of the line, the second finds the disk full
    const failing = jest.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: Buffer, offset: number) => {
      calls += 1;
      if (calls === 1) return realWriteSync(fd, data, offset, 3);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }) as unknown as typeof fs.writeSync);
    await expect(files.append(line('bbbbbb'))).rejects.toThrow(/ENOSPC/);
    failing.mockRestore();

    const places: Array<[number, number]> = [];
    await files.append(line('c'), (seq, offset) => places.push([seq, offset]));

    expect(places).toEqual([[1, 0]]);
    expect(files.sealed()).toEqual([0]);
    const bytes = Buffer.alloc(4);
    files.readSync(1, 0, 4, bytes, 0);
    expect(bytes.toString('utf8')).toBe(line('c'));
    await files.close();
    expect(await contents(dir, 0)).toBe(`${line('a')}"bb`);
    // read again, the cut-short line is skipped
    const again = await openFiles(dir);
    expect(again.read).toEqual([
      ['a', 0],
      ['c', 1],
    ]);
    await again.files.close();
  });

  test('when an append asks where its line goes, then once written it is told its segment and byte offset, multibyte lines before it counted in bytes', async () => {
    const dir = await dirs.make();
    const { files } = await openFiles(dir);
    const places: Array<[string, number, number]> = [];
    const placed = (text: string) => (seq: number, offset: number) => places.push([text, seq, offset]);
    const first = [
      files.append(line('é😀')), // 2 + 4 bytes, 3 characters: not asked about
      files.append(line('b'), placed('b')),
      files.append(line('日本'), placed('日本')),
    ];
    expect(places).toEqual([]); // told only once written
    await Promise.all(first);
    await files.append(line('c'), placed('c')); // a later write, after the first's bytes
    files.sealCurrent();
    await files.append(line('d'), placed('d')); // a new segment
    expect(places).toEqual([
      ['b', 0, 9],
      ['日本', 0, 13],
      ['c', 0, 22],
      ['d', 1, 0],
    ]);
    const bytes = Buffer.alloc(9);
    files.readSync(0, 13, 9, bytes, 0);
    expect(bytes.toString('utf8')).toBe(line('日本'));
    await files.close();
  });

  test('when a segment is read, then readSync copies the bytes asked for into the buffer, and throws past its end', async () => {
    const dir = await dirs.make();
    await writeFile(path.join(dir, '000000000000.log'), line('abc') + line('é'));
    const { files } = await openFiles(dir);
    const into = Buffer.alloc(6, '-');
    files.readSync(0, 6, 4, into, 1);
    expect(into.toString('utf8')).toBe('-"é"-');
    expect(() => files.readSync(0, 8, 4, into, 0)).toThrow('the test log segment 0 ends before byte 12');
    await files.close();
  });

  test('when a segment is deleted, then it is no longer counted at once, its file is gone once the deletion resolves, and close waits for the others', async () => {
    const dir = await dirs.make();
    for (const seq of [0, 1, 2]) await writeFile(path.join(dir, `00000000000${seq}.log`), line(`s${seq}`));
    const { files } = await openFiles(dir);
    const first = files.delete(0);
    expect(files.sealed()).toEqual([1, 2]);
    await first;
    expect(await readdir(dir)).toEqual(['000000000001.log', '000000000002.log']);
    void files.delete(1);
    await files.close();
    expect(await readdir(dir)).toEqual(['000000000002.log']);
  });

  test('when a deleted segment was read before, then its read handle is closed (a read fails) and the others still read', async () => {
    const dir = await dirs.make();
    await writeFile(path.join(dir, '000000000000.log'), line('a'));
    await writeFile(path.join(dir, '000000000001.log'), line('b'));
    const { files } = await openFiles(dir);
    const into = Buffer.alloc(3);
    files.readSync(0, 0, 3, into, 0);
    await files.delete(0);
    expect(() => files.readSync(0, 0, 3, into, 0)).toThrow(/ENOENT/);
    files.readSync(1, 0, 3, into, 0);
    expect(into.toString()).toBe('"b"');
    await files.close();
  });

  test('when segments are read at open, then each line comes with its byte offset and its length in bytes', async () => {
    const dir = await dirs.make();
    await writeFile(path.join(dir, '000000000000.log'), `${line('é')}${line('😀x')}"cut`);
    const { files } = await openFiles(dir);
    const read: Array<[string, number, number, number]> = [];
    const again = createSegmentFiles({ dir, label: 'test log', log: createSilentLogger() });
    await again.open(parseString, (text, seq, offset, bytes) => read.push([text, seq, offset, bytes]));
    expect(read).toEqual([
      ['é', 0, 0, 4],
      ['😀x', 0, 5, 7],
    ]);
    await Promise.all([files.close(), again.close()]);
  });
});
