/**
 * Removing one document from a NeDB index key that many documents share, in place.
 *
 * Why: NeDB keeps an index as an AVL tree (@seald-io/binary-search-tree) whose node holds every
 * document with that key in an array. Every update re-indexes the document in each index of its
 * collection (remove, then insert), and every delete removes it; the library removes one document
 * from a key by copying the key's whole array without it (`forEach` + `push`). An index on a field
 * with few values (kick-link's claim `state`, auth's executions `isCounted` and `flushId`, a
 * `userId` index of per-minute documents) thus costs an allocation and a walk of all documents
 * sharing the key per write: an update of one of 40,000 claims in state `posting` took 350 µs,
 * and the TTL sweep pays it per expired document (docs/performance.md, "Store writes per command").
 * Here the document is looked for from both ends of the array (by identity, which is NeDB's own
 * equality for index values) and spliced out: same result, same order, no new array, and the
 * documents a write usually touches (the newest, or the oldest) are found at once.
 *
 * Only that one case is replaced (a key with more than one document, NeDB's identity equality);
 * everything else (removing a whole node, rebalancing) goes to the library's own code. Should an
 * upgrade change the library's shape, nothing is replaced and NeDB works as it ships.
 */

import path from 'node:path';

/** A node of NeDB's AVL tree (@seald-io/binary-search-tree), as the index patches read it. */
export interface TreeNode {
  key?: unknown;
  left: TreeNode | null;
  right: TreeNode | null;
  data: unknown[];
  compareKeys(a: unknown, b: unknown): number;
  checkValueEquality(a: unknown, b: unknown): boolean;
}

interface AvlTreeClass {
  prototype: { delete(this: { tree: TreeNode }, key: unknown, value?: unknown): void };
}

/* eslint-disable @typescript-eslint/no-require-imports -- untyped internals of NeDB's dependency */
const nedbIndexes = require.resolve('@seald-io/nedb/lib/indexes.js');
const NedbIndex = require(nedbIndexes) as unknown;
// the tree library as NeDB itself resolves it (its dependency, not ours): the copy whose trees NeDB makes
const { AVLTree } = require(
  require.resolve('@seald-io/binary-search-tree', { paths: [path.dirname(nedbIndexes)] }),
) as {
  AVLTree: AvlTreeClass;
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The node of `key`, or undefined (an empty tree, or no such key). */
export function nodeOf(root: TreeNode, key: unknown): TreeNode | undefined {
  let node: TreeNode | null = root;
  while (node && Object.prototype.hasOwnProperty.call(node, 'key')) {
    const order = node.compareKeys(key, node.key);
    if (order === 0) return node;
    node = order < 0 ? node.left : node.right;
  }
  return undefined;
}

/** True when it removed `value` from the node of `key` (which holds other documents too). */
export function removeFromSharedKey(root: TreeNode, key: unknown, value: unknown, equality: unknown): boolean {
  const node = nodeOf(root, key);
  if (!node) return false;
  if (node.data.length <= 1 || node.checkValueEquality !== equality) return false;
  // from both ends: writes mostly touch the newest documents of a key (an update right after the
  // insert) or its oldest (the TTL sweep), which sit at its end and its start. A document is in a
  // key once (NeDB inserts each document once per key), so the first one found is the one.
  const { data } = node;
  for (let front = 0, back = data.length - 1; front <= back; front += 1, back -= 1) {
    if (data[back] === value) {
      data.splice(back, 1);
      break;
    }
    if (data[front] === value) {
      data.splice(front, 1);
      break;
    }
  }
  return true;
}

let isInstalled = false;

/** Installs the in-place removal for NeDB's indexes (once per process); false when the library's shape differs. */
export function installInPlaceIndexRemoval(): boolean {
  if (isInstalled) return true;
  if (typeof NedbIndex !== 'function') return false;
  // NeDB's equality for index values, as its indexes hand it to their trees
  const probe = new (NedbIndex as new (options: { fieldName: string }) => { tree?: { tree?: TreeNode } })({
    fieldName: 'probe',
  });
  const tree = probe.tree;
  // the trees NeDB makes must be this copy's, or replacing its method would change nothing
  if (!tree || !(tree instanceof (AVLTree as unknown as new () => object))) return false;
  const equality = tree.tree?.checkValueEquality;
  const original = AVLTree.prototype.delete;
  if (typeof equality !== 'function' || typeof original !== 'function' || !Array.isArray(tree.tree?.data)) return false;
  AVLTree.prototype.delete = function (this: { tree: TreeNode }, key: unknown, value?: unknown) {
    if (value !== undefined && removeFromSharedKey(this.tree, key, value, equality)) return;
    original.call(this, key, value);
  };
  isInstalled = true;
  return true;
}
