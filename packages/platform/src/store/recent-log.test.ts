import { appendFile, cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../log/logger';
import { createSilentLogger } from '../log/logger';
import { createTempDirs } from '../testing/temp-dirs';
import { createRecentLog, type RecentLogOptions } from './recent-log';
import { createEmbeddedStore } from './embedded-store';
import type { Document, RecentLog, Store } from './store';

const dirs = createTempDirs('recent');
afterAll(() => dirs.removeAll());

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

/**
 * Replaces `from` with `to` (as many bytes) in every segment of the log: what `recent` returns
 * then shows whether it read a text from the files or held it in memory.
 */
async function rewriteInLog(logDir: string, from: string, to: string): Promise<number> {
  expect(Buffer.byteLength(to)).toBe(Buffer.byteLength(from));
  let found = 0;
  for (const name of await segmentsIn(logDir)) {
    const file = path.join(logDir, name);
    const text = await readFile(file, 'utf8');
    found += text.split(from).length - 1;
    await writeFile(file, text.split(from).join(to));
  }
  return found;
}

/** How often `text` is in the log's segments, read without yielding (so no write can happen meanwhile). */
function countInLogNow(logDir: string, text: string): number {
  const names = readdirSync(logDir).filter((name) => name.endsWith('.log'));
  return names.reduce((found, name) => found + readFileSync(path.join(logDir, name), 'utf8').split(text).length - 1, 0);
}

/** A gate a compaction waits at (beforeCompactionRename) until the test opens it. */
function compactionGate(): { reached: Promise<void>; open(): void; hook(): Promise<void> } {
  let reach = () => undefined as void;
  let release = () => undefined as void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let isUsed = false;
  return {
    reached,
    open: () => release(),
    hook: async () => {
      if (isUsed) return; // only the first compaction waits
      isUsed = true;
      reach();
      await released;
    },
  };
}

describe('the embedded store recent log (recent-log.ts)', () => {
  test('when the store restarts, then each key has its newest entries back, in order', async () => {
    const dir = await dirs.make();
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
    const dir = await dirs.make();
    const { store, lines } = await openLines(dir);
    await lines.append('u1', 'm1', at(1), { text: 'kept' });
    // a copy taken now, without closing, stands for the folder a crash leaves behind
    const copy = await dirs.make();
    await cp(path.join(dir, 'chat-lines.recent'), path.join(copy, 'chat-lines.recent'), { recursive: true });
    const restarted = await openLines(copy);
    expect(textsOf(await restarted.lines.recent('u1', 10))).toEqual(['kept']);
    await restarted.store.close();
    await store.close();
  });

  test('when the last line was cut short by a crash, then it is skipped with a warning and the rest is there', async () => {
    const dir = await dirs.make();
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
    const dir = await dirs.make();
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
    const dir = await dirs.make();
    const logDir = path.join(dir, 'lines');
    let copied = false;
    const copy = path.join(await dirs.make(), 'lines');
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
    const dir = await dirs.make();
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
    const { store, lines } = await openLines(await dirs.make());
    // 'm4vl8' and 'mlpd6' have the same 32-bit FNV-1a hash: the hash only narrows the search
    await lines.append('u1', 'm4vl8', at(1), { text: 'first' });
    await lines.append('u1', 'mlpd6', at(2), { text: 'second' });
    await lines.append('u1', 'mlpd6', at(3), { text: 'again' });
    expect(textsOf(await lines.recent('u1', 10))).toEqual(['first', 'second']);
    await store.close();
  });

  test('when a name is used as a collection and as a recent log, then the second use is refused', async () => {
    const dir = await dirs.make();
    const store = await createEmbeddedStore({ dir });
    await store.collection('things').insertOne({ _id: 't1' });
    expect(() => store.recentLog('things', spec)).toThrow('"things" is a collection of this store, not a recent log');
    store.recentLog('lines', spec);
    expect(() => store.collection('lines')).toThrow('"lines" is a recent log of this store, not a collection');
    expect(() => store.recentLog('../escape', spec)).toThrow('invalid recent log name "../escape"');
    await store.close();
  });

  describe('texts on disk', () => {
    const logIn = async (dir: string, more: Partial<RecentLogOptions> = {}) => {
      const log = createRecentLog<Line>({ dir, keepPerKey: 3, log: createSilentLogger(), ...more });
      await log.open();
      return log;
    };

    test('when an entry line is written, then recent reads its text from the log file, not from memory', async () => {
      const logDir = path.join(await dirs.make(), 'lines');
      const log = await logIn(logDir);
      await log.append('u1', 'm1', at(1), { text: 'on disk' });
      expect(await rewriteInLog(logDir, 'on disk', 'ON DISK')).toBe(1);
      expect(await log.recent('u1', 10)).toEqual([{ id: 'm1', at: at(1), entry: { text: 'ON DISK' } }]);
      await log.close();
    });

    test('when a range is read, then its texts come from the log file, and those being written from memory', async () => {
      const logDir = path.join(await dirs.make(), 'lines');
      const log = await logIn(logDir);
      await log.append('u1', 'm1', at(1), { text: 'on disk' });
      await log.append('u1', 'm2', at(2), { text: 'outside' });
      expect(await rewriteInLog(logDir, 'on disk', 'ON DISK')).toBe(1);
      const appending = log.append('u1', 'm0', at(1), { text: 'being written' });
      expect(await log.range('u1', at(1), at(2))).toEqual([
        { id: 'm0', at: at(1), entry: { text: 'being written' } },
        { id: 'm1', at: at(1), entry: { text: 'ON DISK' } },
      ]);
      expect(await appending).toBe(true);
      await log.close();
    });

    test('when recent is asked before an entry line is written, then it is read from memory, and from the file once written', async () => {
      const logDir = path.join(await dirs.make(), 'lines');
      const log = await logIn(logDir);
      await log.append('u1', 'm1', at(1), { text: 'first' });
      const appending = log.append('u1', 'm2', at(2), { text: 'being written' });
      // in the same task: its line is written at the end of it
      const reading = log.recent('u1', 10);
      expect(countInLogNow(logDir, 'being written')).toBe(0);
      expect(textsOf(await reading)).toEqual(['first', 'being written']);
      await appending;
      expect(await rewriteInLog(logDir, 'being written', 'BEING WRITTEN')).toBe(1);
      expect(textsOf(await log.recent('u1', 10))).toEqual(['first', 'BEING WRITTEN']);
      await log.close();
    });

    test('when texts hold multibyte characters, then they come back exactly: being written, written, compacted and replayed', async () => {
      const logDir = path.join(await dirs.make(), 'lines');
      const texts = [
        'héllo wörld ça va',
        '😀🎉 emoji 👍🏽 and 🇫🇷',
        '日本語のテキスト',
        'mixed é😀日 end',
        'a\u0000b "quoted" \\ \n tab\t',
        'a lone surrogate \ud800 and \u2028',
      ];
      const log = await logIn(logDir, { minLinesBeforeCompaction: 4, keepPerKey: 10 });
      const appends = texts.map((text, n) => log.append('ключ-😀', `id-é-${n}`, at(n), { text }));
      const expected = texts.map((text, n) => ({ id: `id-é-${n}`, at: at(n), entry: { text } }));
      expect(await log.recent('ключ-😀', 10)).toEqual(expected); // from memory
      await Promise.all(appends);
      expect(await log.recent('ключ-😀', 10)).toEqual(expected); // from the segment
      await log.append('other', 'o1', at(9), { text: 'after' }); // past the 4th line: a compaction
      await log.close();
      expect(await segmentsIn(logDir)).not.toContain('000000000000.log');

      const replayed = await logIn(logDir, { keepPerKey: 10 });
      expect(await replayed.recent('ключ-😀', 10)).toEqual(expected);
      expect(textsOf(await replayed.recent('other', 10))).toEqual(['after']);
      await replayed.close();
    });

    test('when a compaction deleted the older segments, then every entry is read from its place in the new one', async () => {
      const logDir = path.join(await dirs.make(), 'lines');
      let compacted = () => undefined as void;
      const compaction = new Promise<void>((resolve) => (compacted = resolve));
      const log = await logIn(logDir, { minLinesBeforeCompaction: 10, afterCompaction: () => compacted() });
      for (let n = 1; n <= 12; n++) await log.append(`u${n % 2}`, `m${n}`, at(n), { text: `line ${n}` });
      await log.append('u0', 'm13', at(13), { text: 'line 13' });
      // the compaction the 10th line began: its segment (1) replaced 0, appends go on in 2
      await compaction;
      expect(await segmentsIn(logDir)).toEqual(['000000000001.log', '000000000002.log']);
      expect(await log.recent('u0', 10)).toEqual([
        { id: 'm10', at: at(10), entry: { text: 'line 10' } },
        { id: 'm12', at: at(12), entry: { text: 'line 12' } },
        { id: 'm13', at: at(13), entry: { text: 'line 13' } },
      ]);
      expect(textsOf(await log.recent('u1', 10))).toEqual(['line 7', 'line 9', 'line 11']);
      // read from the compaction's segment: its copy of line 7 is the only one left
      expect(await rewriteInLog(logDir, 'line 7', 'LINE 7')).toBe(1);
      expect(textsOf(await log.recent('u1', 10))).toEqual(['LINE 7', 'line 9', 'line 11']);
      await log.close();
    });

    test('when recent is asked while a compaction runs, then it reads the older segments, and a read begun before they are deleted ends with the same entries', async () => {
      const logDir = path.join(await dirs.make(), 'lines');
      const gate = compactionGate();
      const log = await logIn(logDir, { minLinesBeforeCompaction: 5, beforeCompactionRename: gate.hook });
      for (let n = 1; n <= 5; n++) await log.append('u1', `m${n}`, at(n), { text: `line ${n}` });
      await gate.reached; // the compaction's file is written, the older segment still there
      expect(await segmentsIn(logDir)).toEqual(['000000000000.log']);
      expect(textsOf(await log.recent('u1', 10))).toEqual(['line 3', 'line 4', 'line 5']);
      // appended meanwhile: the newest pushes m3 out, the next goes to a segment after the compaction's
      await log.append('u1', 'm6', at(6), { text: 'line 6' });
      // m3 appended again, newer: a line of its own, not the compaction's copy of the first m3
      await log.append('u1', 'm3', at(7), { text: 'line 3 again' });
      const reading = log.recent('u1', 10);
      gate.open();
      await log.append('u1', 'm8', at(8), { text: 'line 8' });
      await log.close(); // waits for the compaction
      expect(textsOf(await reading)).toEqual(['line 5', 'line 6', 'line 3 again']);
      expect(await segmentsIn(logDir)).toEqual(['000000000001.log', '000000000002.log']);

      const replayed = await logIn(logDir);
      expect(await replayed.recent('u1', 10)).toEqual([
        { id: 'm6', at: at(6), entry: { text: 'line 6' } },
        { id: 'm3', at: at(7), entry: { text: 'line 3 again' } },
        { id: 'm8', at: at(8), entry: { text: 'line 8' } },
      ]);
      await replayed.close();
    });

    test('when a compaction ends, then entries held in memory meanwhile are read from the files, as are those of the open segment', async () => {
      const logDir = path.join(await dirs.make(), 'lines');
      const gate = compactionGate();
      const log = await logIn(logDir, { minLinesBeforeCompaction: 5, beforeCompactionRename: gate.hook });
      for (let n = 1; n <= 5; n++) await log.append('u1', `m${n}`, at(n), { text: `line ${n}` });
      await gate.reached;
      await log.append('u2', 'x1', at(6), { text: 'during' });
      gate.open();
      await log.append('u2', 'x2', at(7), { text: 'after' });
      await log.close();
      expect(await rewriteInLog(logDir, 'line 4', 'LINE 4')).toBe(1);
      expect(await rewriteInLog(logDir, 'during', 'DURING')).toBe(1);

      const replayed = await logIn(logDir);
      expect(textsOf(await replayed.recent('u1', 10))).toEqual(['line 3', 'LINE 4', 'line 5']);
      expect(textsOf(await replayed.recent('u2', 10))).toEqual(['DURING', 'after']);
      await replayed.close();
    });

    test('when a crash comes after a compaction renamed its file but before it deleted the older segments, then both replay to the same entries', async () => {
      const logDir = path.join(await dirs.make(), 'lines');
      const copy = path.join(await dirs.make(), 'lines');
      const log = await logIn(logDir, {
        minLinesBeforeCompaction: 5,
        beforeCompactionRename: async () => {
          await cp(logDir, copy, { recursive: true });
          await rm(path.join(copy, 'compaction.tmp'));
        },
      });
      for (let n = 1; n <= 5; n++) await log.append('u1', `m${n}`, at(n), { text: `line ${n}` });
      await log.close();
      // the folder a crash right after the rename leaves: the older segment and the compaction's
      await cp(path.join(logDir, '000000000001.log'), path.join(copy, '000000000001.log'));
      expect(await segmentsIn(copy)).toEqual(['000000000000.log', '000000000001.log']);

      const replayed = await logIn(copy);
      expect(await replayed.recent('u1', 10)).toEqual([
        { id: 'm3', at: at(3), entry: { text: 'line 3' } },
        { id: 'm4', at: at(4), entry: { text: 'line 4' } },
        { id: 'm5', at: at(5), entry: { text: 'line 5' } },
      ]);
      await replayed.close();
    });

    test('when a compaction writes more entries than one chunk, then histories read meanwhile, the new segment and its replay all have every text exactly', async () => {
      const logDir = path.join(await dirs.make(), 'lines');
      let isCompacted = false;
      const keepPerKey = 150; // 450 held over 3 keys: the compaction writes them in chunks of 200
      const log = await logIn(logDir, {
        keepPerKey,
        minLinesBeforeCompaction: 600,
        afterCompaction: () => (isCompacted = true),
      });
      const appended: number[][] = [[], [], []];
      const text = (n: number) => `line ${n} é`;
      const expectedOf = (k: number) => (appended[k] as number[]).slice(-keepPerKey).map(text);
      let readsDuringCompaction = 0;
      let n = 0;
      // the 600th line begins the compaction (its texts all on disk then); lines go on meanwhile
      while (!isCompacted) {
        n += 1;
        await log.append(`u${n % 3}`, `m${n}`, at(n), { text: text(n) });
        (appended[n % 3] as number[]).push(n);
        if (n < 600 || isCompacted) continue;
        readsDuringCompaction += 1;
        for (const k of [0, 1, 2]) expect(textsOf(await log.recent(`u${k}`, keepPerKey))).toEqual(expectedOf(k));
      }
      expect(readsDuringCompaction).toBeGreaterThan(0);
      expect(await segmentsIn(logDir)).toEqual(['000000000001.log', '000000000002.log']);
      for (const k of [0, 1, 2]) expect(textsOf(await log.recent(`u${k}`, keepPerKey))).toEqual(expectedOf(k));
      await log.close();

      const replayed = await logIn(logDir, { keepPerKey });
      for (const k of [0, 1, 2]) expect(textsOf(await replayed.recent(`u${k}`, keepPerKey))).toEqual(expectedOf(k));
      await replayed.close();
    });

    test('when the log is closed, then recent is refused', async () => {
      const log = await logIn(path.join(await dirs.make(), 'lines'));
      await log.close();
      await expect(log.recent('u1', 10)).rejects.toThrow('the recent log is closed');
    });
  });
});
