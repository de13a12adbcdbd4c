import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Datastore from '@seald-io/nedb';
import { createTempDirs } from '../testing/temp-dirs';
import { rewriteDatafile, serializeChunk } from './compaction';
import { createJournal } from './journal';

const dirs = createTempDirs('compaction');
afterAll(() => dirs.removeAll());

async function datafileWith(lines: unknown[]): Promise<string> {
  const filename = path.join(await dirs.make(), 'items.db');
  await writeFile(filename, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return filename;
}

const linesOf = async (filename: string) =>
  (await readFile(filename, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What NeDB loads from the file: its documents by _id and its indexes. */
async function loaded(filename: string): Promise<{ docs: unknown[]; indexes: string[] }> {
  const datastore = new Datastore<{ _id: string }>({ filename });
  await datastore.loadDatabaseAsync();
  const docs = [...datastore.getAllData()].sort((a, b) => a._id.localeCompare(b._id));
  const { indexes } = datastore as unknown as { indexes: Record<string, { unique: boolean }> };
  return { docs, indexes: Object.entries(indexes).map(([name, index]) => `${name}${index.unique ? ' unique' : ''}`) };
}

describe('rewriteDatafile', () => {
  const oldLines = [
    { _id: 'a', n: 1 },
    { _id: 'b', n: 1 },
    { _id: 'a', n: 2 },
    { _id: 'c', n: 1 },
    { $$deleted: true, _id: 'c' },
    { $$indexCreated: { fieldName: 'n', unique: false } },
  ];
  const snapshot = {
    docs: [
      { _id: 'a', n: 2 },
      { _id: 'b', n: 1 },
    ],
    indexes: [{ fieldName: 'n', unique: false, sparse: false }],
  };

  test('when lines are journaled while the snapshot is written in chunks, then the new file holds the snapshot, its indexes and those lines, in order', async () => {
    const filename = await datafileWith(oldLines);
    const journal = createJournal(filename, 0o600);
    journal.startCapture();
    const rewriting = rewriteDatafile({ filename, fileMode: 0o600, journal, snapshot, chunkSize: 1 });
    // the rewrite yields between chunks: these writes go on meanwhile and reach the old file first
    journal.append(`${JSON.stringify({ _id: 'b', n: 2 })}\n`);
    await journal.written();
    await nextTurn();
    journal.append(`${JSON.stringify({ _id: 'd', n: 1 })}\n`);
    journal.append(`${JSON.stringify({ $$deleted: true, _id: 'a' })}\n`);
    const lastWritten = journal.written();
    await rewriting;
    await lastWritten;
    // and a write after the swap goes to the new file
    journal.append(`${JSON.stringify({ _id: 'e', n: 1 })}\n`);
    await journal.written();
    await journal.close();

    expect(await linesOf(filename)).toEqual([
      { _id: 'a', n: 2 },
      { _id: 'b', n: 1 },
      { $$indexCreated: { fieldName: 'n', unique: false, sparse: false } },
      { _id: 'b', n: 2 },
      { _id: 'd', n: 1 },
      { $$deleted: true, _id: 'a' },
      { _id: 'e', n: 1 },
    ]);
    expect(await readdir(path.dirname(filename))).toEqual(['items.db']);
    expect((await stat(filename)).mode & 0o777).toBe(0o600);
    expect(await loaded(filename)).toEqual({
      docs: [
        { _id: 'b', n: 2 },
        { _id: 'd', n: 1 },
        { _id: 'e', n: 1 },
      ],
      indexes: ['_id unique', 'n'],
    });
  });

  test('when the rewrite stops before the rename, then the old datafile is left whole, with the lines journaled meanwhile, and stays in use', async () => {
    const filename = await datafileWith(oldLines);
    const journal = createJournal(filename, 0o600);
    journal.startCapture();
    const rewriting = rewriteDatafile({
      filename,
      fileMode: 0o600,
      journal,
      snapshot,
      chunkSize: 1,
      beforeRename: () => Promise.reject(new Error('crash')),
    });
    journal.append(`${JSON.stringify({ _id: 'b', n: 2 })}\n`);
    await journal.written();
    await expect(rewriting).rejects.toThrow('crash');
    journal.append(`${JSON.stringify({ _id: 'e', n: 1 })}\n`);
    await journal.written();
    await journal.close();

    expect(await linesOf(filename)).toEqual([...oldLines, { _id: 'b', n: 2 }, { _id: 'e', n: 1 }]);
    expect(await readdir(path.dirname(filename))).toEqual(['items.db']);
  });

  test('when a half-written temporary file is left next to the datafile (a crash), then NeDB loads the datafile', async () => {
    const filename = await datafileWith(oldLines);
    await writeFile(`${filename}~`, `${JSON.stringify({ _id: 'a', n: 2 })}\n{"_id":"b","n`);
    expect(await loaded(filename)).toEqual({
      docs: [
        { _id: 'a', n: 2 },
        { _id: 'b', n: 1 },
      ],
      indexes: ['_id unique', 'n'],
    });
  });

  describe('serializeChunk', () => {
    const docs = [{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }, { _id: 'd' }];
    /** A clock that moves `stepMs` each time it is read. */
    const steppingClock = (stepMs: number) => {
      let nowMs = 0;
      return () => (nowMs += stepMs);
    };

    test('when the budget lasts, then a chunk holds maxDocs documents as NeDB lines, and the next starts after them', () => {
      expect(serializeChunk(docs, 1, { maxDocs: 2, budgetMs: 100, now: steppingClock(1) })).toEqual({
        text: '{"_id":"b"}\n{"_id":"c"}\n',
        end: 3,
      });
    });

    test('when each document takes 2 ms and the budget is 4 ms, then a chunk holds 2 documents however many maxDocs allows', () => {
      expect(serializeChunk(docs, 0, { maxDocs: 500, budgetMs: 4, now: steppingClock(2) })).toEqual({
        text: '{"_id":"a"}\n{"_id":"b"}\n',
        end: 2,
      });
    });

    test('when one document takes longer than the budget, then the chunk still holds it', () => {
      expect(serializeChunk(docs, 3, { maxDocs: 500, budgetMs: 4, now: steppingClock(10) })).toEqual({
        text: '{"_id":"d"}\n',
        end: 4,
      });
    });
  });
});
