/**
 * NeDB's key comparison with a shortcut for two strings, two numbers and two Dates.
 *
 * Why: NeDB's indexes order their keys with `model.compareThings`, which walks its type
 * hierarchy (undefined, null, number, string, …) before comparing, and the AVL tree calls it twice
 * on every level of a descent; the keys of the store's indexes are nearly all strings (_ids, user
 * and channel ids), numbers or Dates (the expiry fields). It was the largest self time of `npm run bench:embedded-ops`
 * (22 %, mostly inserts; docs/performance.md, "Hot operations of the embedded store"). Two strings
 * or two numbers compare here as NeDB compares them (`<` and `>`, NaN equal to everything, as
 * there), two Dates by their times (an invalid one, NaN, equal to everything, as there); anything else, and a comparison with NeDB's `compareStrings` option, goes to NeDB's own.
 *
 * An index takes the comparison from `model.compareThings` when it is made (and its tree hands it
 * to every node), as does a cursor's sort: the export is replaced once, before the store makes a
 * datastore. Should an upgrade change that, nothing is replaced and NeDB works as it ships.
 */

type Compare = (a: unknown, b: unknown, compareStrings?: (a: string, b: string) => number) => number;

interface NedbModel {
  compareThings: Compare;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped internals of NeDB
const nedbModel = require('@seald-io/nedb/lib/model.js') as Partial<NedbModel>;

/** `original` with the shortcut for strings, numbers and Dates. */
export function withPrimitiveShortcut(original: Compare): Compare {
  return (a, b, compareStrings) => {
    const kind = typeof a;
    if ((kind === 'string' || kind === 'number') && typeof b === kind && compareStrings === undefined) {
      if ((a as string | number) < (b as string | number)) return -1;
      if ((a as string | number) > (b as string | number)) return 1;
      return 0;
    }
    // NeDB compares two Dates by their times (a Date from another realm goes to NeDB's own)
    if (a instanceof Date && b instanceof Date) {
      const order = a.getTime() - b.getTime();
      return order < 0 ? -1 : order > 0 ? 1 : 0;
    }
    return original(a, b, compareStrings);
  };
}

const installedOn = new WeakSet<object>();

/**
 * Installs the shortcut on NeDB's model (once); false, and nothing replaced, when the model has no
 * `compareThings` of NeDB's signature. `model` is NeDB's unless a test passes another.
 */
export function installKeyComparisonShortcut(model: Partial<NedbModel> = nedbModel): boolean {
  if (installedOn.has(model)) return true;
  const original = model.compareThings;
  // NeDB's compareThings takes (a, b, compareStrings?): a differently shaped one is left alone
  if (typeof original !== 'function' || original.length !== 3) return false;
  model.compareThings = withPrimitiveShortcut(original);
  installedOn.add(model);
  return true;
}
