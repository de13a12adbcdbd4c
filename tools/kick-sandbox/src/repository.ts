import type { Collection, Document, Store } from '@kickstand/platform/store';
import { createRecordLog, type RecordLog } from './records';

/** A channel's settings and live state; every Kick user has exactly one channel, so it lives on the user. */
export interface ChannelState {
  description: string;
  streamTitle: string;
  categoryId: number;
  language: string;
  isMature: boolean;
  customTags: string[];
  isLive: boolean;
  /** Kept after the stream ends: the end event repeats it. */
  startedAt: Date | null;
  endedAt: Date | null;
  viewerCount: number;
  /** Ingest credentials, shown only to the owner with streamkey:read. */
  streamUrl: string;
  streamKey: string;
  activeSubscribersCount: number;
  canceledSubscribersCount: number;
  /** Users allowed to ban and delete messages here (besides the broadcaster). */
  moderatorUserIds: number[];
  /** Months subscribed per user, for the subscriber badge. */
  subscribers: { userId: number; months: number }[];
}

export interface KickUserDoc extends Document {
  /** String(userId): the store's key. */
  _id: string;
  userId: number;
  username: string;
  /** Lower-case username: the unique key and the channel slug. */
  slug: string;
  email: string;
  isVerified: boolean;
  usernameColor: string;
  createdAt: Date;
  channel: ChannelState;
}

export interface PendingAuthorizationDoc extends Document {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  codeChallenge: string;
  createdAt: Date;
  expiresAt: Date;
}

export interface AuthorizationCodeDoc extends Document {
  /** _id is the hash of the code. */
  clientId: string;
  redirectUri: string;
  scopes: string[];
  userId: number;
  codeChallenge: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

export type TokenKind = 'access' | 'refresh';
export type TokenType = 'user' | 'app';

export interface TokenDoc extends Document {
  /** _id is the hash of the token. */
  kind: TokenKind;
  tokenType: TokenType;
  clientId: string;
  userId: number | null;
  scopes: string[];
  /** Tokens from one authorization (and its refreshes) share it, so a refresh revocation reaches them all. */
  grantId: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  /** When a refresh token was exchanged; it keeps working for the grace period after. */
  rotatedAt: Date | null;
}

export interface EventSubscriptionDoc extends Document {
  /** _id is the ULID subscription id. */
  appId: string;
  broadcasterUserId: number;
  event: string;
  version: number;
  method: 'webhook';
  createdAt: Date;
  updatedAt: Date;
  /** Failed deliveries in a row, for auto-unsubscribe. */
  consecutiveFailures: number;
}

export type ChatMessageType = 'user' | 'bot' | 'viewer';

export interface BadgeDoc {
  text: string;
  type: string;
  count?: number;
}

export interface ChatMessageDoc extends Document {
  /** _id is the UUID message id. */
  seq: number;
  broadcasterUserId: number;
  senderUserId: number;
  senderUsername: string;
  content: string;
  /** 'viewer' = typed in the sandbox; 'user' / 'bot' = the `type` the product sent through the API. */
  type: ChatMessageType;
  badges: BadgeDoc[];
  usernameColor: string;
  replyToMessageId: string | null;
  createdAt: Date;
  deletedAt: Date | null;
}

export interface BanDoc extends Document {
  seq: number;
  broadcasterUserId: number;
  userId: number;
  moderatorUserId: number;
  reason: string;
  /** 'api' = the product called POST /moderation/bans; 'sandbox' = triggered through the control API. */
  source: 'api' | 'sandbox';
  createdAt: Date;
  /** null = permanent ban; otherwise a timeout. */
  expiresAt: Date | null;
  liftedAt: Date | null;
}

export interface CallDoc extends Document {
  seq: number;
  at: Date;
  /** A short name of the Kick endpoint, e.g. `oauth.token`, `chat`, `events.subscriptions`. */
  endpoint: string;
  method: string;
  path: string;
  /**
   * Query and body as JSON text, secrets (tokens, codes, verifiers, client secret) replaced: a copy
   * as the call was made, whatever its keys (`.` and `$` included) and whatever later changes the objects.
   */
  queryJson: string;
  bodyJson: string | null;
  tokenType: TokenType | null;
  tokenUserId: number | null;
  status: number;
  /** The error body answered, when status ≥ 400 (never holds a secret). */
  error: unknown;
}

export interface DeliveryAttempt {
  /** 'duplicate' = the extra copy sent by the duplicate fault. */
  kind: 'first' | 'retry' | 'duplicate';
  at: Date;
  /** The Kick-Event-Message-Timestamp header sent. */
  timestamp: string;
  /** The webhook's HTTP status, or null when it could not be reached. */
  status: number | null;
  error: string | null;
  durationMs: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

export interface DeliveryDoc extends Document {
  seq: number;
  /** Kick-Event-Message-Id (ULID); a duplicate fault sends it twice. */
  messageId: string;
  subscriptionId: string;
  broadcasterUserId: number;
  eventType: string;
  eventVersion: number;
  /** The exact JSON body sent (and signed). */
  body: string;
  createdAt: Date;
  /** Fault names applied to this delivery. */
  faults: string[];
  state: DeliveryState;
  attempts: DeliveryAttempt[];
}

export interface MetaDoc extends Document {
  value: Record<string, string>;
}

export interface Repository {
  users: Collection<KickUserDoc>;
  pendingAuthorizations: Collection<PendingAuthorizationDoc>;
  authorizationCodes: Collection<AuthorizationCodeDoc>;
  tokens: Collection<TokenDoc>;
  subscriptions: Collection<EventSubscriptionDoc>;
  /** In memory, the newest `chatLinesKept` (records.ts): gone after a restart. */
  chatMessages: RecordLog<ChatMessageDoc>;
  bans: Collection<BanDoc>;
  /** In memory, the newest `recordsKept` (records.ts): inspection only, and gone after a restart. */
  calls: RecordLog<CallDoc>;
  /** In memory, the newest `recordsKept` (records.ts): inspection only, and gone after a restart. */
  deliveries: RecordLog<DeliveryDoc>;
  meta: Collection<MetaDoc>;
  /** A per-collection counter that orders records made in the same millisecond ("give me what came after N"). */
  nextSeq(collection: SequencedCollection): number;
  /** Creates indexes and picks up the counters where the last run left them. */
  init(): Promise<void>;
}

export type SequencedCollection = 'bans';

/** How many calls, and how many deliveries, the sandbox keeps for inspection by default. */
export const defaultRecordsKept = 10_000;

/**
 * How many chat lines it keeps by default: minutes of a load test's replies (~300 a
 * second), so a reader following them by `seq` (the bench) does not lose any while it keeps up.
 */
export const defaultChatLinesKept = 50_000;

export function createRepository(
  store: Store,
  kept: { records: number; chatLines: number } = { records: defaultRecordsKept, chatLines: defaultChatLinesKept },
): Repository {
  const users = store.collection<KickUserDoc>('kick_users');
  const pendingAuthorizations = store.collection<PendingAuthorizationDoc>('pending_authorizations');
  const authorizationCodes = store.collection<AuthorizationCodeDoc>('authorization_codes');
  const tokens = store.collection<TokenDoc>('tokens');
  const subscriptions = store.collection<EventSubscriptionDoc>('event_subscriptions');
  const chatMessages = createRecordLog<ChatMessageDoc>(kept.chatLines);
  const bans = store.collection<BanDoc>('bans');
  const calls = createRecordLog<CallDoc>(kept.records);
  const deliveries = createRecordLog<DeliveryDoc>(kept.records);
  const meta = store.collection<MetaDoc>('meta');
  const sequenced = { bans } satisfies Record<SequencedCollection, Collection<Document & { seq: number }>>;
  const counters = new Map<SequencedCollection, number>();

  return {
    users,
    pendingAuthorizations,
    authorizationCodes,
    tokens,
    subscriptions,
    chatMessages,
    bans,
    calls,
    deliveries,
    meta,
    nextSeq(collection) {
      const next = (counters.get(collection) ?? 0) + 1;
      counters.set(collection, next);
      return next;
    },
    async init() {
      await users.createIndex({ fields: { slug: 1 }, unique: true });
      await users.createIndex({ fields: { userId: 1 }, unique: true });
      // Codes and pending requests are checked for expiry in code; the TTL only clears them away later.
      await pendingAuthorizations.createIndex({ fields: { expiresAt: 1 }, expireAfterSeconds: 3600 });
      await authorizationCodes.createIndex({ fields: { expiresAt: 1 }, expireAfterSeconds: 3600 });
      await tokens.createIndex({ fields: { userId: 1 } });
      await tokens.createIndex({ fields: { grantId: 1 } });
      await subscriptions.createIndex({ fields: { broadcasterUserId: 1 } });
      for (const [name, collection] of Object.entries(sequenced) as [
        SequencedCollection,
        Collection<Document & { seq: number }>,
      ][]) {
        const [last] = await collection.find({}, { sort: { seq: -1 }, limit: 1 });
        counters.set(name, last?.seq ?? 0);
      }
    },
  };
}
