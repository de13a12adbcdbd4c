import type * as MongoAdapter from './mongo-store';
import type { MongoStoreOptions } from './mongo-store';
import type { Store } from './store';

export {
  DuplicateKeyError,
  type ClaimSet,
  type ClaimSetSpec,
  type Collection,
  type Document,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type NewDocument,
  type RecentEntry,
  type RecentItem,
  type RecentLog,
  type RecentLogSpec,
  type SortOrder,
  type Store,
  type Update,
  type UpdateOneWrite,
  type UpdateResult,
} from './store';
export { createEmbeddedStore, type EmbeddedStoreOptions } from './embedded-store';
export type { MongoStoreOptions } from './mongo-store';
export { mongoDriverOptions } from './mongo-driver';
export { collectionClaimSet } from './claim-set';
export { collectionRecentLog, recentLogTrimEvery } from './collection-recent-log';
export { createRecentIds, type RecentIds, type RecentIdsOptions } from './recent-ids';

/**
 * The MongoDB adapter (mongo-store.ts), loaded on first use: mongoose with its driver costs ~33 MB
 * of resident memory at load (BSON's 16 MB serialisation buffer among it), which a process on the
 * embedded store (single-machine mode) never needs.
 */
export function createMongoStore(options: MongoStoreOptions): Promise<Store> {
  // a require, not import(): jest runs tests in a vm context without dynamic import (mongo-driver.ts)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const adapter = require('./mongo-store') as typeof MongoAdapter;
  return adapter.createMongoStore(options);
}
