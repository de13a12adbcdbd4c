import { seededRandom } from '../random';
import { serializeNedbLine } from './nedb-serialize';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- NeDB's untyped serialiser, the reference
const nedbModel = require('@seald-io/nedb/lib/model.js') as { serialize(doc: unknown): string };

/** What NeDB's serialiser gives: its line, or its error's message. */
function nedbOutcome(doc: unknown): string {
  try {
    return `line ${nedbModel.serialize(doc)}`;
  } catch (error) {
    return `error ${(error as Error).message}`;
  }
}

function outcome(doc: unknown): string {
  try {
    return `line ${serializeNedbLine(doc)}`;
  } catch (error) {
    return `error ${(error as Error).message}`;
  }
}

const strings = [
  '',
  'a',
  'é',
  '日本語',
  '😀',
  '\ud800',
  'line\nbreak',
  'quote"back\\slash',
  '\u2028\u2029',
  '\u0000\u001f',
  'x'.repeat(40),
];
const numbers = [0, -0, 1, -1, 1.5, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, NaN, Infinity, -Infinity];
const keys = [
  'a',
  'b',
  '_id',
  'count',
  '10',
  '2',
  'ü',
  'with space',
  '$$date',
  '$$deleted',
  'x.y',
  '$bad',
  '$$indexCreated',
];

function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const kind = Math.floor(random() * (depth > 3 ? 7 : 10));
  switch (kind) {
    case 0:
      return pick(strings);
    case 1:
      return pick(numbers);
    case 2:
      return random() < 0.5;
    case 3:
      return null;
    case 4:
      return undefined;
    case 5:
      return new Date(Math.floor(random() * 4e12) - 1e12);
    case 6:
      return random() < 0.1 ? new Date(NaN) : pick(strings);
    case 7:
    case 8: {
      const object: Record<string, unknown> = {};
      const size = Math.floor(random() * 5);
      // $-keys and dotted keys now and then, so NeDB's key errors are compared too
      for (let i = 0; i < size; i += 1)
        object[random() < 0.9 ? pick(keys.slice(0, 8)) : pick(keys)] = randomValue(random, depth + 1);
      return object;
    }
    default: {
      const array: unknown[] = [];
      const size = Math.floor(random() * 5);
      for (let i = 0; i < size; i += 1) array.push(randomValue(random, depth + 1));
      return array;
    }
  }
}

describe('serializeNedbLine', () => {
  test('when given 5,000 varied documents, then each line (or error) is the one NeDB makes', () => {
    const random = seededRandom(22);
    const mismatches: string[] = [];
    let errors = 0;
    for (let i = 0; i < 5000; i += 1) {
      const doc = { _id: `d${i}`, ...(randomValue(random, 0) as object), nested: randomValue(random, 1) };
      const expected = nedbOutcome(doc);
      if (expected.startsWith('error')) errors += 1;
      if (outcome(doc) !== expected) mismatches.push(`${expected} / ${outcome(doc)}`);
    }
    expect(mismatches).toEqual([]);
    // the generator does reach NeDB's key errors
    expect(errors).toBeGreaterThan(100);
  });

  test('when a document has dates nested in arrays and objects, then they are written as $$date', () => {
    const doc = {
      _id: 'x',
      at: new Date(1_700_000_000_000),
      list: [new Date(0), { when: new Date(-5) }],
      bad: new Date(NaN),
    };

    expect(serializeNedbLine(doc)).toBe(
      '{"_id":"x","at":{"$$date":1700000000000},"list":[{"$$date":0},{"when":{"$$date":-5}}],"bad":null}',
    );
    expect(serializeNedbLine(doc)).toBe(nedbModel.serialize(doc));
  });

  test('when undefined and special numbers appear, then they are dropped or null as in NeDB', () => {
    const doc = { _id: 'x', gone: undefined, list: [undefined, NaN, -0, Infinity], n: -Infinity };

    expect(serializeNedbLine(doc)).toBe('{"_id":"x","list":[null,null,0,null],"n":null}');
    expect(serializeNedbLine(doc)).toBe(nedbModel.serialize(doc));
  });

  test('when the line is a deletion or an index line, then it is NeDB line', () => {
    const lines = [
      { $$deleted: true, _id: 'a' },
      { $$indexCreated: { fieldName: 'userId', unique: true, sparse: false } },
      { $$indexCreated: { fieldName: 'a,b', unique: undefined, sparse: undefined } },
      { $$indexRemoved: 'userId' },
    ];

    expect(lines.map(serializeNedbLine)).toEqual([
      '{"$$deleted":true,"_id":"a"}',
      '{"$$indexCreated":{"fieldName":"userId","unique":true,"sparse":false}}',
      '{"$$indexCreated":{"fieldName":"a,b"}}',
      '{"$$indexRemoved":"userId"}',
    ]);
    expect(lines.map(serializeNedbLine)).toEqual(lines.map(nedbModel.serialize));
  });

  test('when a key breaks NeDB rules, then the error is NeDB error', () => {
    expect(() => serializeNedbLine({ _id: 'x', $set: 1 })).toThrow('Field names cannot begin with the $ character');
    expect(() => serializeNedbLine({ _id: 'x', deep: [{ 'a.b': 1 }] })).toThrow('Field names cannot contain a .');
    expect(() => serializeNedbLine({ _id: 'x', $$deleted: false })).toThrow(
      'Field names cannot begin with the $ character',
    );
    // a $-key with an undefined value is checked too, though the value is left out
    expect(() => serializeNedbLine({ _id: 'x', $gone: undefined })).toThrow(
      'Field names cannot begin with the $ character',
    );
  });

  test('when a value is no plain data (a class instance, a function, an own toJSON), then NeDB serialiser decides', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const docs = [
      { _id: 'a', point: new Point(1) },
      { _id: 'b', run: () => 1, list: [() => 1] },
      { _id: 'c', custom: { toJSON: () => ({ $$date: 5 }) } },
      { _id: 'd', fake: { getTime: () => 7 } },
      { _id: 'e', $$date: { toJSON: () => 3 } },
      Object.assign(Object.create(null) as object, { _id: 'f', at: new Date(1) }),
      new Date(3),
    ];

    expect(docs.map(outcome)).toEqual(docs.map(nedbOutcome));
  });
});
