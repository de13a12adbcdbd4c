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
  type SortOrder,
  type Store,
  type Update,
  type UpdateResult,
} from './store';
export { createEmbeddedStore, type EmbeddedStoreOptions } from './embedded-store';
export { createMongoStore, type MongoStoreOptions } from './mongo-store';
export { mongoDriverOptions } from './mongo-driver';
export { collectionClaimSet } from './claim-set';
