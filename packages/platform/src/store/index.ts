export {
  DuplicateKeyError,
  type Collection,
  type Document,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type NewDocument,
  type SortOrder,
  type Store,
  type Update,
  type UpdateOneWrite,
  type UpdateResult,
} from './store';
export { createEmbeddedStore, type EmbeddedStoreOptions } from './embedded-store';
export { createMongoStore, type MongoStoreOptions } from './mongo-store';
export { mongoDriverOptions } from './mongo-driver';
