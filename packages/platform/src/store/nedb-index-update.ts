/**
 * Re-indexing an updated document in place when its key in an index did not change.
 *
 * Why: NeDB replaces a document on update (a modified copy) and re-indexes the copy in every index
 * of the collection by removing the old document and inserting the new one (`Index.update`). In
 * the _id index, and in any index whose field the update did not touch, that is an AVL delete (a
 * rebalance along the path) and an insert (another) to put the new document where the old one was:
 * 6 % of the owner thread's busy time at 1,000 chat messages/s went to the AVL tree library
 * (docs/performance.md, "Hot operations of the embedded store"). Here, when the old and the new
 * document have the same key (NeDB's own key comparison), the new document takes the old one's
 * place in the key's node: one descent, no rebalancing.
 *
 * Only that case is replaced: one document (not NeDB's multi-document update), a key that is not
 * an array (a document with an array value is in several keys), a non-sparse index (a sparse one
 * leaves some documents out), and the old document found in the node by identity (NeDB's equality
 * for index values). Everything else goes to NeDB's own `update`, which also keeps its unique
 * checks and its rollback: a key that did not change cannot violate uniqueness, and NeDB's rollback
 * of a failed update in another index (`revertUpdate`, an update back) takes the same path.
 *
 * One difference in what is observable: among the documents sharing a key of a non-unique index,
 * the updated one keeps its position, where NeDB's remove + insert moved it to the end. The order
 * of a query's results without a sort was never promised (MongoDB's is not either).
 *
 * Should an upgrade change the library's shape, nothing is replaced and NeDB works as it ships.
 */

import path from 'node:path';
import { nodeOf, type TreeNode } from './nedb-index-removal';

/** What this needs of an instance of NeDB's Index. */
interface NedbIndex {
  _fields: string[];
  sparse: boolean;
  tree: { tree: TreeNode };
}

export interface NedbIndexClass {
  prototype: { update(this: NedbIndex, oldDoc: unknown, newDoc?: unknown): void };
}

interface NedbModel {
  getDotValues(doc: unknown, fields: string[]): unknown;
}

/* eslint-disable @typescript-eslint/no-require-imports -- untyped internals of NeDB */
const nedbIndexes = require.resolve('@seald-io/nedb/lib/indexes.js');
const NedbIndex = require(nedbIndexes) as unknown;
const nedbModel = require(path.join(path.dirname(nedbIndexes), 'model.js')) as Partial<NedbModel>;
/* eslint-enable @typescript-eslint/no-require-imports */

/** True when `newDoc` took `oldDoc`'s place in `index` (their keys are the same). */
export function replaceInPlace(index: NedbIndex, oldDoc: unknown, newDoc: unknown, model: NedbModel): boolean {
  if (index.sparse) return false;
  const oldKey = model.getDotValues(oldDoc, index._fields);
  if (Array.isArray(oldKey)) return false;
  const newKey = model.getDotValues(newDoc, index._fields);
  if (Array.isArray(newKey)) return false;
  const root = index.tree.tree;
  if (root.compareKeys(oldKey, newKey) !== 0) return false;
  const node = nodeOf(root, oldKey);
  if (!node) return false;
  // from both ends: an update mostly touches a key's newest or oldest documents (nedb-index-removal.ts)
  const { data } = node;
  for (let front = 0, back = data.length - 1; front <= back; front += 1, back -= 1) {
    if (data[back] === oldDoc) {
      data[back] = newDoc;
      return true;
    }
    if (data[front] === oldDoc) {
      data[front] = newDoc;
      return true;
    }
  }
  return false;
}

/** Whether `IndexClass` makes indexes of the shape this relies on (an instance is made to see). */
function hasExpectedShape(IndexClass: unknown, model: Partial<NedbModel>): IndexClass is NedbIndexClass {
  if (typeof IndexClass !== 'function' || typeof model.getDotValues !== 'function') return false;
  const prototype = (IndexClass as { prototype?: Record<string, unknown> }).prototype;
  if (typeof prototype?.update !== 'function') return false;
  let probe: Partial<NedbIndex>;
  try {
    probe = new (IndexClass as new (options: { fieldName: string }) => Partial<NedbIndex>)({ fieldName: 'probe' });
  } catch {
    return false;
  }
  const root = probe.tree?.tree;
  return (
    Array.isArray(probe._fields) &&
    typeof probe.sparse === 'boolean' &&
    root !== undefined &&
    typeof root.compareKeys === 'function' &&
    Array.isArray(root.data) &&
    'left' in root &&
    'right' in root
  );
}

const installedOn = new WeakSet<object>();

/**
 * Installs the in-place re-index on NeDB's Index (once per class); false, and nothing replaced,
 * when the class or NeDB's model differs from what this relies on. The arguments are NeDB's own
 * unless a test passes others.
 */
export function installInPlaceReindex(IndexClass: unknown = NedbIndex, model: Partial<NedbModel> = nedbModel): boolean {
  if (!hasExpectedShape(IndexClass, model)) return false;
  if (installedOn.has(IndexClass)) return true;
  const checkedModel = model as NedbModel;
  const original = IndexClass.prototype.update;
  IndexClass.prototype.update = function (this: NedbIndex, oldDoc: unknown, newDoc?: unknown) {
    if (!Array.isArray(oldDoc) && replaceInPlace(this, oldDoc, newDoc, checkedModel)) return;
    original.call(this, oldDoc, newDoc);
  };
  installedOn.add(IndexClass);
  return true;
}
