import { createRecordLog } from './records';

interface Note {
  _id: string;
  seq: number;
  channel: number;
  text: string;
}

const note = (id: string, channel: number, text = id) => ({ _id: id, channel, text });
const ids = (notes: Note[]) => notes.map((found) => found._id);
const all = () => true;

describe('a record log', () => {
  test('when records are added, then each gets the next seq, starting at 1', () => {
    const log = createRecordLog<Note>(10);
    expect(log.add(note('a', 1)).seq).toBe(1);
    expect(log.add(note('b', 1)).seq).toBe(2);
    expect(log.add(note('c', 2))).toEqual({ _id: 'c', seq: 3, channel: 2, text: 'c' });
  });

  test('when listed after a seq, then the first matching records after it, oldest first, up to the limit', () => {
    const log = createRecordLog<Note>(10);
    for (const [id, channel] of [
      ['a', 1],
      ['b', 2],
      ['c', 1],
      ['d', 1],
      ['e', 2],
    ] as const)
      log.add(note(id, channel));
    expect(ids(log.list(all, 2, 10))).toEqual(['c', 'd', 'e']);
    expect(ids(log.list((found) => found.channel === 1, 0, 2))).toEqual(['a', 'c']);
    expect(ids(log.list((found) => found.channel === 2, 1, 10))).toEqual(['b', 'e']);
    expect(ids(log.list(all, 5, 10))).toEqual([]);
    expect(ids(log.list(all, 99, 10))).toEqual([]);
  });

  test('when listed without a seq, then the newest matching records, still oldest first', () => {
    const log = createRecordLog<Note>(10);
    for (const [id, channel] of [
      ['a', 1],
      ['b', 2],
      ['c', 1],
      ['d', 1],
      ['e', 2],
    ] as const)
      log.add(note(id, channel));
    expect(ids(log.list(all, undefined, 2))).toEqual(['d', 'e']);
    expect(ids(log.list((found) => found.channel === 1, undefined, 2))).toEqual(['c', 'd']);
  });

  test('when more than it keeps were added, then the oldest are gone (dropped a tenth of the bound at a time) and seq goes on', () => {
    const log = createRecordLog<Note>(3);
    for (const id of ['a', 'b', 'c', 'd']) log.add(note(id, 1));
    // 3 kept, plus a tenth (rounded up) before a drop
    expect(ids(log.list(all, 0, 10))).toEqual(['a', 'b', 'c', 'd']);
    log.add(note('e', 1));
    expect(ids(log.list(all, 0, 10))).toEqual(['c', 'd', 'e']);
    expect(log.byId('a')).toBeUndefined();
    expect(log.byId('b')).toBeUndefined();
    expect(ids(log.list(all, 3, 10))).toEqual(['d', 'e']);
    expect(log.add(note('f', 1)).seq).toBe(6);
  });

  test('when a record is updated, then reads see the new one and the object handed out before stays as it was', () => {
    const log = createRecordLog<Note>(10);
    log.add(note('a', 1));
    const before = log.add(note('b', 1, 'first'));
    log.add(note('c', 1));
    const after = log.update('b', (kept) => ({ ...kept, text: 'second' }));
    expect(after).toEqual({ _id: 'b', seq: 2, channel: 1, text: 'second' });
    expect(before.text).toBe('first');
    expect(log.byId('b')?.text).toBe('second');
    expect(log.list(all, 1, 1)).toEqual([after]);
  });

  test('when the record to update is not kept (never was, or dropped), then nothing changes', () => {
    const log = createRecordLog<Note>(1);
    log.add(note('a', 1));
    log.add(note('b', 1));
    log.add(note('c', 1));
    expect(log.update('a', (kept) => ({ ...kept, text: 'x' }))).toBeUndefined();
    expect(log.update('zzz', (kept) => ({ ...kept, text: 'x' }))).toBeUndefined();
    expect(log.list(all, 0, 10)).toEqual([{ _id: 'c', seq: 3, channel: 1, text: 'c' }]);
  });

  test('when asked to keep no record, then it refuses to start', () => {
    expect(() => createRecordLog<Note>(0)).toThrow('a record log keeps at least one record (0)');
  });
});
