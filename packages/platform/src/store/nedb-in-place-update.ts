/**
 * A single-document update applied to NeDB's own document in place, when it changes no index key.
 *
 * Why: NeDB's `model.modify` deep-copies the whole document for every update, and the copy takes
 * the old one's place. For the counters the chat bumps on every command (a command's usage with
 * its hour buckets, its count, a day's executions) that is a copy of every bucket for one `$inc`,
 * and both copies end in the owner's old generation: the new one lives until the next update and
 * the old one is garbage there, which fills it toward the next full collection (~30 % of what the
 * owner promoted at 1,000 chat messages/s was the store's writes; docs/performance.md, "Updates in
 * place"). Here the fields the update names are changed on the document itself, and the indexes,
 * which hold that same object, need nothing.
 *
 * Only `$set`, `$unset`, `$inc` and `$max` on paths that no index reads and that do not overlap
 * one another, through plain objects, are applied here; anything else (an array on the way, a
 * field name NeDB would refuse, `$push`/`$pull`, an `$inc` on a non-number) returns undefined and
 * goes to NeDB's copy, which also reports NeDB's own errors. Everything is checked before anything
 * is changed, so an update either applies whole or not at all, as NeDB's does. The results are
 * NeDB's: the same fields, values and key order (a new field comes last, as in NeDB's copy).
 */

import { isDeepStrictEqual } from 'node:util';

type Doc = Record<string, unknown>;

interface NedbModel {
  deepCopy<T>(value: T): T;
  checkObject(value: unknown): void;
}

const inPlaceOperators = new Set(['$set', '$unset', '$inc', '$max']);

/** One field the update changes: where it is, and the value it gets (or its removal). */
interface Change {
  operator: string;
  /** The path's parts. */
  parts: string[];
  value: unknown;
}

/**
 * An object NeDB made (a literal or a parsed line). Stricter than update.ts's `isPlainObject`, which
 * lets any non-array, non-Date object through: a class instance on the path goes to NeDB's copy.
 */
function isObjectLiteral(value: unknown): value is Doc {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A field name NeDB accepts that also names no property every object has (`constructor`, `__proto__`). */
const isPlainFieldName = (part: string) => part !== '' && !part.startsWith('$') && !(part in Object.prototype);

/** Whether one path is the other or lies inside it. */
function overlaps(a: readonly string[], b: readonly string[]): boolean {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** What a `$max` compares with `>` the same way whatever it meets: numbers, strings, Dates. */
const isComparable = (value: unknown) =>
  typeof value === 'number' || typeof value === 'string' || value instanceof Date || value === undefined;

/**
 * The changes of `modifiers`, each checked against `doc` as it is; undefined when one of them
 * cannot be applied in place (NeDB's copy then does the update).
 */
function changesOf(
  doc: Doc,
  modifiers: Doc,
  indexedPaths: readonly string[][],
  model: NedbModel,
): Change[] | undefined {
  const changes: Change[] = [];
  for (const [operator, fields] of Object.entries(modifiers)) {
    if (!inPlaceOperators.has(operator) || !isObjectLiteral(fields)) return undefined;
    for (const [path, given] of Object.entries(fields)) {
      const parts = path.split('.');
      if (!parts.every(isPlainFieldName)) return undefined;
      if (indexedPaths.some((indexed) => overlaps(indexed, parts))) return undefined;
      if (changes.some((change) => overlaps(change.parts, parts))) return undefined;
      let node: unknown = doc;
      for (const part of parts.slice(0, -1)) {
        node = (node as Doc | undefined)?.[part];
        if (node !== undefined && !isObjectLiteral(node)) return undefined;
      }
      const leaf = parts[parts.length - 1] as string;
      const current = (node as Doc | undefined)?.[leaf];
      let value = given;
      if (operator === '$set') {
        try {
          model.checkObject(given);
        } catch {
          return undefined;
        }
        // kept, not the caller's object: the caller may change it later
        value = model.deepCopy(given);
      } else if (operator === '$inc') {
        if (typeof given !== 'number') return undefined;
        const isOwn = node !== undefined && Object.prototype.hasOwnProperty.call(node, leaf);
        if (typeof current !== 'number' && isOwn) return undefined;
      } else if (operator === '$max') {
        if (!isComparable(given) || !isComparable(current)) return undefined;
      }
      changes.push({ operator, parts, value });
    }
  }
  return changes;
}

/** Applies one checked change; true when the document is different for it. */
function apply(doc: Doc, { operator, parts, value }: Change): boolean {
  const leaf = parts[parts.length - 1] as string;
  let node = doc;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === undefined) {
      // an $unset of a field whose parent is missing changes nothing, as in NeDB
      if (operator === '$unset') return false;
      node[part] = {};
    }
    node = node[part] as Doc;
  }
  const isOwn = Object.prototype.hasOwnProperty.call(node, leaf);
  const before = node[leaf];
  switch (operator) {
    case '$unset':
      delete node[leaf];
      return isOwn;
    case '$inc':
      node[leaf] = typeof before === 'number' ? before + (value as number) : value;
      break;
    case '$max':
      // NeDB's own test, word for word
      if (typeof before === 'undefined' || (value as number) > (before as number)) node[leaf] = value;
      break;
    default:
      node[leaf] = value;
  }
  return !isOwn || !isDeepStrictEqual(before, node[leaf]);
}

/**
 * Applies `modifiers` (NeDB's modifier object) to `doc` itself, when it can be done in place
 * without changing a key of the indexes at `indexedPaths` (each path's parts); returns whether the
 * document changed, or undefined (nothing done) when NeDB's copy must do it.
 */
export function modifyInPlace(
  doc: Doc,
  modifiers: Doc,
  indexedPaths: readonly string[][],
  model: NedbModel,
): { isModified: boolean } | undefined {
  const changes = changesOf(doc, modifiers, indexedPaths, model);
  if (changes === undefined) return undefined;
  let isModified = false;
  for (const change of changes) if (apply(doc, change)) isModified = true;
  return { isModified };
}
