/**
 * NeDB's datafile line of a document, without NeDB's per-key replacer.
 *
 * Why: NeDB's `model.serialize` is `JSON.stringify` with a replacer function, which V8 calls for
 * every key and every array element (with `checkKey` and a `getTime` probe each): 6.7 % of the
 * owner thread's busy time at 1,000 chat messages/s, for the journal's line of every written
 * document and the compaction's rewrite (docs/performance.md, "Hot operations of the embedded
 * store"). Here the line is built by a walk of the document, each string and key escaped by
 * `JSON.stringify` itself.
 *
 * The walk produces NeDB's line byte for byte for what NeDB's documents hold (strings, numbers,
 * booleans, null, undefined, Dates, arrays, plain objects), with NeDB's key checks and their
 * errors (a document NeDB has checked never fails them, but an index or a deletion line is not
 * checked by NeDB before it is serialised). Anything else (a class instance, a function, an object
 * with its own `toJSON` or `getTime`) goes to NeDB's own serialiser, whole.
 */

// NeDB's own serialiser, for what the walk leaves to it (the package has no types for it)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nedbModel = require('@seald-io/nedb/lib/model.js') as { serialize(doc: unknown): string };

/** Thrown inside the walk when the value is one it leaves to NeDB. */
const notPlain = Symbol('not plain');

const dollar = 36; // '$'

/** NeDB's `checkKey`, on a key of an object and its value. */
function checkKey(key: string, value: unknown): void {
  if (key.charCodeAt(0) === dollar) checkDollarKey(key, value);
  if (key.includes('.')) throw new Error('Field names cannot contain a .');
}

function checkDollarKey(key: string, value: unknown): void {
  if (hasToJson(value)) throw notPlain; // NeDB checks what toJSON returns
  if (
    !(key === '$$date' && typeof value === 'number') &&
    !(key === '$$deleted' && value === true) &&
    key !== '$$indexCreated' &&
    key !== '$$indexRemoved'
  ) {
    throw new Error('Field names cannot begin with the $ character');
  }
}

function hasToJson(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** The JSON of `value` as NeDB's replacer makes it; undefined where JSON.stringify leaves the value out. */
function valueText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // JSON's number text is ToString(number), non-finite numbers are null
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return undefined;
    case 'object':
      return value === null ? 'null' : objectText(value);
    default:
      // functions (an own toJSON or getTime among them), symbols, bigints: NeDB's replacer decides
      throw notPlain;
  }
}

function objectText(value: object): string {
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype === Object.prototype || prototype === null) return recordText(value as Record<string, unknown>);
  if (prototype === Array.prototype && Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) text += ',';
      // an array's undefined is null in JSON (a hole reads as undefined)
      text += valueText((value as unknown[])[i]) ?? 'null';
    }
    return `${text}]`;
  }
  if (prototype === Date.prototype && !Object.prototype.hasOwnProperty.call(value, 'toJSON')) {
    const time = (value as Date).getTime();
    // Date's toJSON is null for an invalid date, and NeDB's replacer keeps null as it is
    return Number.isFinite(time) ? `{"$$date":${String(time)}}` : 'null';
  }
  throw notPlain;
}

/**
 * A plain object's JSON. Its prototype has no enumerable keys, toJSON or getTime, so for…in walks
 * its own keys in JSON.stringify's order, and an own toJSON or getTime (which JSON.stringify or
 * NeDB's replacer would call) is a function, left to NeDB.
 */
function recordText(record: Record<string, unknown>): string {
  let text = '{';
  let isFirst = true;
  for (const key in record) {
    const field = record[key];
    checkKey(key, field); // before the value, and on undefined ones too, as NeDB's replacer does
    const fieldText = valueText(field);
    if (fieldText === undefined) continue;
    text += isFirst ? keyText(key) : `,${keyText(key)}`;
    text += fieldText;
    isFirst = false;
  }
  return `${text}}`;
}

/** `"key":` of the keys seen so far (a collection's documents share a few field names). */
const keyTexts = new Map<string, string>();
const maxKeyTexts = 10_000;

function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`;
    if (keyTexts.size < maxKeyTexts) keyTexts.set(key, text);
  }
  return text;
}

/** The line NeDB's `model.serialize` makes of `doc` (same text, same errors). */
export function serializeNedbLine(doc: unknown): string {
  try {
    const text = valueText(doc);
    // JSON.stringify(undefined) is undefined, which NeDB's callers would append as "undefined"
    if (text === undefined) return nedbModel.serialize(doc);
    return text;
  } catch (error) {
    if (error === notPlain) return nedbModel.serialize(doc);
    throw error;
  }
}
