import Datastore from '@seald-io/nedb';
import { installKeyComparisonShortcut, withPrimitiveShortcut } from './nedb-compare-keys';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- NeDB's untyped model, the reference
const nedbModel = require('@seald-io/nedb/lib/model.js') as { compareThings(a: unknown, b: unknown): number };

describe("NeDB's key comparison with a shortcut for strings, numbers and Dates", () => {
  test('when NeDB is as this version ships, then the shortcut is installed and new indexes use it', () => {
    expect(installKeyComparisonShortcut()).toBe(true);
    const datastore = new Datastore();
    const { indexes } = datastore as unknown as {
      indexes: Record<string, { tree: { tree: { compareKeys: unknown } } }>;
    };

    expect(indexes._id?.tree.tree.compareKeys).toBe(nedbModel.compareThings);
  });

  test('when the model has no compareThings of NeDB signature, then nothing is replaced', () => {
    const twoArguments = (a: unknown, b: unknown) => (a === b ? 0 : 1);
    const model = { compareThings: twoArguments };

    expect(installKeyComparisonShortcut(model)).toBe(false);
    expect(installKeyComparisonShortcut({})).toBe(false);
    expect(model.compareThings).toBe(twoArguments);
  });

  test('when any two values of NeDB type hierarchy are compared, then the order is NeDB own', () => {
    // a copy of NeDB's model as it ships (the shared one may have the shortcut installed already)
    let original = nedbModel.compareThings as (
      a: unknown,
      b: unknown,
      compareStrings?: (x: string, y: string) => number,
    ) => number;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      original = (require('@seald-io/nedb/lib/model.js') as { compareThings: typeof original }).compareThings;
    });
    expect(original).not.toBe(nedbModel.compareThings);
    const shortcut = withPrimitiveShortcut(original);
    const values = [
      undefined,
      null,
      -Infinity,
      -1,
      -0,
      0,
      0.5,
      1,
      NaN,
      Infinity,
      '',
      'A',
      'a',
      'aa',
      'é',
      '10',
      '9',
      false,
      true,
      new Date(0),
      new Date(5),
      new Date(NaN),
      new Date(-3),
      [],
      ['a'],
      [1, 2],
      {},
      { a: 1 },
      { a: '1', b: 2 },
    ];
    const orders: string[] = [];
    const expected: string[] = [];
    for (const a of values) {
      for (const b of values) {
        orders.push(`${String(a)} ${String(b)} ${shortcut(a, b)}`);
        expected.push(`${String(a)} ${String(b)} ${original(a, b)}`);
      }
    }
    expect(orders).toEqual(expected);
    // with NeDB's compareStrings option, NeDB's own comparison decides
    const reversed = (x: string, y: string) => y.localeCompare(x);
    expect(shortcut('a', 'b', reversed)).toBe(1);
  });
});
