import { appendFile, cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../log/logger';
import { createSilentLogger } from '../log/logger';
import { createRecentLog } from './recent-log';
import { createEmbeddedStore } from './embedded-store';
import type { Document, RecentLog, Store } from './store';

const tempDirs: string[] = [];
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-recent-'));
  tempDirs.push(dir);
  return dir;
}

type Line = { text: string };
const spec = { keepPerKey: 3, keyField: 'userId', atField: 'at' };
const at = (seconds: number) => new Date(Date.UTC(2026, 2, 1, 20, 0, seconds));
const textsOf = (items: Array<{ entry: Line }>) => items.map((item) => item.entry.text);

/** The embedded store on `dir` with its `chat-lines` recent log open. */
async function openLines(dir: string): Promise<{ store: Store; lines: RecentLog<Line> }> {
  const store = await createEmbeddedStore({ dir });
  const lines = store.recentLog<Line>('chat-lines', spec);
  await lines.open();
  return { store, lines };
}

/** A logger that keeps its warnings' messages. */
function warningsLog(): { log: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const log = createSilentLogger();
  log.warn = ((_fields: unknown, message?: string) => {
    warnings.push(message ?? '');
  }) as Logger['warn'];
  return { log, warnings };
}

const segmentsIn = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith('.log')).sort();

describe('the embedded store recent log (recent-log.ts)', () => {
  test('when the store restarts, then each key has its newest entries back, in order', async () => {
    const dir = await freshDir();
    const first = await openLines(dir);
    for (let n = 1; n <= 5; n++) await first.lines.append('u1', `m${n}`, at(n), { text: `line ${n}` });
    await first.lines.append('u2', 'x1', at(9), { text: 'other' });
    await first.store.close();

    const second = await openLines(dir);
    expect(await second.lines.recent('u1', 10)).toEqual([
      { id: 'm3', at: at(3), entry: { text: 'line 3' } },
      { id: 'm4', at: at(4), entry: { text: 'line 4' } },
      { id: 'm5', at: at(5), entry: { text: 'line 5' } },
    ]);
    expect(textsOf(await second.lines.recent('u2', 10))).toEqual(['other']);
    // an id replayed from the log is still held: appending it again is a no-op
    await second.lines.append('u1', 'm5', at(5), { text: 'again' });
    expect(textsOf(await second.lines.recent('u1', 10))).toEqual(['line 3', 'line 4', 'line 5']);
    await second.store.close();
  });

  test('when an append resolves, then its line is in the log already (a crash right after loses nothing)', async () => {
    const dir = await freshDir();
    const { store, lines } = await openLines(dir);
    await lines.append('u1', 'm1', at(1), { text: 'kept' });
    // a copy taken now, without closing, stands for the folder a crash leaves behind
    const copy = await freshDir();
    await cp(path.join(dir, 'chat-lines.recent'), path.join(copy, 'chat-lines.recent'), { recursive: true });
    const restarted = await openLines(copy);
    expect(textsOf(await restarted.lines.recent('u1', 10))).toEqual(['kept']);
    await restarted.store.close();
    await store.close();
  });

  test('when the last line was cut short by a crash, then it is skipped with a warning and the rest is there', async () => {
    const dir = await freshDir();
    const logDir = path.join(dir, 'lines');
    const first = createRecentLog<Line>({ dir: logDir, keepPerKey: 3, log: createSilentLogger() });
    await first.open();
    await first.append('u1', 'm1', at(1), { text: 'whole' });
    await first.close();
    const [segment] = await segmentsIn(logDir);
    await appendFile(path.join(logDir, segment as string), '["u1","m2",17');

    const { log, warnings } = warningsLog();
    const second = createRecentLog<Line>({ dir: logDir, keepPerKey: 3, log });
    await second.open();
    expect(textsOf(await second.recent('u1', 10))).toEqual(['whole']);
    expect(warnings).toEqual(['recent log lines that could not be read were skipped']);
    // appends go to a new segment, after the cut line
    await second.append('u1', 'm3', at(3), { text: 'after' });
    await second.close();
    const third = createRecentLog<Line>({ dir: logDir, keepPerKey: 3, log: createSilentLogger() });
    await third.open();
    expect(textsOf(await third.recent('u1', 10))).toEqual(['whole', 'after']);
    await third.close();
  });

  test('when more lines were appended than memory holds, then the log is compacted to what memory holds and replays to the same', async () => {
    const dir = await freshDir();
    const logDir = path.join(dir, 'lines');
    const options = { dir: logDir, keepPerKey: 3, log: createSilentLogger(), minLinesBeforeCompaction: 10 };
    const first = createRecentLog<Line>(options);
    await first.open();
    for (let n = 1; n <= 30; n++) await first.append(`u${n % 2}`, `m${n}`, at(n), { text: `line ${n}` });
    await first.close();
    // the first compaction (at the 10th line) replaced the first segment with memory's 6 lines
    const segments = await segmentsIn(logDir);
    expect(segments).not.toContain('000000000000.log');
    const texts = await Promise.all(segments.map((name) => readFile(path.join(logDir, name), 'utf8')));
    expect(texts.join('').split('\n').length - 1).toBeLessThan(30);

    const second = createRecentLog<Line>(options);
    await second.open();
    expect(textsOf(await second.recent('u0', 10))).toEqual(['line 26', 'line 28', 'line 30']);
    expect(textsOf(await second.recent('u1', 10))).toEqual(['line 25', 'line 27', 'line 29']);
    await second.close();
  });

  test('when a crash stops a compaction before its file is renamed, then the old segments replay to the same entries', async () => {
    const dir = await freshDir();
    const logDir = path.join(dir, 'lines');
    let copied = false;
    const copy = path.join(await freshDir(), 'lines');
    const first = createRecentLog<Line>({
      dir: logDir,
      keepPerKey: 3,
      log: createSilentLogger(),
      minLinesBeforeCompaction: 5,
      // the folder as a crash would leave it: the compaction's file written, not renamed
      beforeCompactionRename: async () => {
        if (copied) return;
        copied = true;
        await cp(logDir, copy, { recursive: true });
      },
    });
    await first.open();
    for (let n = 1; n <= 5; n++) await first.append('u1', `m${n}`, at(n), { text: `line ${n}` });
    await first.close();
    expect(copied).toBe(true);
    expect((await readdir(copy)).sort()).toEqual(['000000000000.log', 'compaction.tmp']);

    const restarted = createRecentLog<Line>({ dir: copy, keepPerKey: 3, log: createSilentLogger() });
    await restarted.open();
    expect(textsOf(await restarted.recent('u1', 10))).toEqual(['line 3', 'line 4', 'line 5']);
    await restarted.close();
    expect(existsSync(path.join(copy, 'compaction.tmp'))).toBe(false);
  });

  test('when a data folder of an earlier version holds the collection, then each key newest entries are imported once and the collection is gone', async () => {
    const dir = await freshDir();
    const before = await createEmbeddedStore({ dir });
    const old = before.collection<Document & { userId: string; at: Date; payload?: Line; event?: Line }>('chat-lines');
    await old.createIndex({ fields: { userId: 1, at: -1 } });
    for (let n = 1; n <= 5; n++)
      await old.insertOne({ _id: `m${n}`, userId: 'u1', at: at(n), payload: { text: `line ${n}` } });
    await old.insertOne({ _id: 'e1', userId: 'u2', at: at(7), event: { text: 'a gift' } });
    await old.insertOne({ _id: 'gone', userId: 'u2', at: at(8), payload: { text: 'deleted' } });
    await old.deleteOne({ _id: 'gone' });
    await before.close();
    expect(existsSync(path.join(dir, 'chat-lines.db'))).toBe(true);

    const upgraded = await createEmbeddedStore({ dir });
    const lines = upgraded.recentLog<{ payload?: Line; event?: Line }>('chat-lines', spec);
    await lines.open();
    expect(await lines.recent('u1', 10)).toEqual([
      { id: 'm3', at: at(3), entry: { payload: { text: 'line 3' } } },
      { id: 'm4', at: at(4), entry: { payload: { text: 'line 4' } } },
      { id: 'm5', at: at(5), entry: { payload: { text: 'line 5' } } },
    ]);
    expect(await lines.recent('u2', 10)).toEqual([{ id: 'e1', at: at(7), entry: { event: { text: 'a gift' } } }]);
    expect(existsSync(path.join(dir, 'chat-lines.db'))).toBe(false);
    await lines.append('u1', 'm6', at(6), { payload: { text: 'line 6' } });
    await upgraded.close();

    const again = await createEmbeddedStore({ dir });
    const reopened = again.recentLog<{ payload?: Line }>('chat-lines', spec);
    await reopened.open();
    expect((await reopened.recent('u1', 10)).map((item) => item.id)).toEqual(['m4', 'm5', 'm6']);
    await again.close();
  });

  test('when two ids share a hash, then both are kept, and each is found again as itself', async () => {
    const { store, lines } = await openLines(await freshDir());
    // 'm4vl8' and 'mlpd6' have the same 32-bit FNV-1a hash: the hash only narrows the search
    await lines.append('u1', 'm4vl8', at(1), { text: 'first' });
    await lines.append('u1', 'mlpd6', at(2), { text: 'second' });
    await lines.append('u1', 'mlpd6', at(3), { text: 'again' });
    expect(textsOf(await lines.recent('u1', 10))).toEqual(['first', 'second']);
    await store.close();
  });

  test('when a name is used as a collection and as a recent log, then the second use is refused', async () => {
    const dir = await freshDir();
    const store = await createEmbeddedStore({ dir });
    await store.collection('things').insertOne({ _id: 't1' });
    expect(() => store.recentLog('things', spec)).toThrow('"things" is a collection of this store, not a recent log');
    store.recentLog('lines', spec);
    expect(() => store.collection('lines')).toThrow('"lines" is a recent log of this store, not a collection');
    expect(() => store.recentLog('../escape', spec)).toThrow('invalid recent log name "../escape"');
    await store.close();
  });
});
