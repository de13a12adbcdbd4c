import { DuplicateKeyError, type ClaimSet, type ClaimSetSpec, type Collection, type Document } from './store';

/**
 * A claim set as documents: one per claim (`_id` the id, `spec.dateField` the claim's date) in a
 * collection with a TTL index on that date, so the unique `_id` makes a claim win once and the
 * adapter's expiry frees it again. The MongoDB adapter's claim sets (several instances share them).
 */
export function collectionClaimSet(collection: Collection<Document>, spec: ClaimSetSpec): ClaimSet {
  return {
    open: () =>
      collection.createIndex({ fields: { [spec.dateField]: 1 }, expireAfterSeconds: spec.expireAfterSeconds }),
    async claim(id, at) {
      try {
        await collection.insertOne({ _id: id, [spec.dateField]: at });
        return true;
      } catch (error) {
        if (error instanceof DuplicateKeyError) return false;
        throw error;
      }
    },
    // the adapter hides expired documents its sweep has not deleted yet
    has: async (id) => (await collection.count({ _id: id })) > 0,
    async claimedAt(id) {
      const held = await collection.findOne({ _id: id });
      const at: unknown = held ? Reflect.get(held, spec.dateField) : undefined;
      return at instanceof Date ? at : null;
    },
    async release(id) {
      await collection.deleteOne({ _id: id });
    },
  };
}
