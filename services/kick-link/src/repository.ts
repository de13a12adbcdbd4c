import { DuplicateKeyError, type Collection, type Document, type Store } from '@kickstand/platform/store';

/** One Kickstand user's link to one Kick account (= one channel). Tokens are sealed (token-crypto.ts). */
export interface LinkDoc extends Document {
  /** The Kickstand user id: one link per user. */
  _id: string;
  /** Kick's user id of the linked account, which is the broadcaster id of its channel. Unique. */
  kickUserId: string;
  kickUsername: string;
  kickEmail: string;
  profilePicture: string;
  linkedAt: Date;
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: Date;
  scopes: string[];
  /** `needs-relink` once Kick refused the refresh token: nothing works until the user links again. */
  status: LinkStatus;
  /** Bumped by every token write; a refresh only lands on the version it started from. */
  version: number;
  tokensUpdatedAt: Date;
  /**
   * What the last changes of a streamer's link still have to publish (the platform's outbox relay):
   * written in the same update as the change. Absent on the bot account and on older links.
   */
  outbox?: LinkMessage[];
}

/** A kick.account or chat.subscription a streamer's link change owes; `id` becomes the event id. */
export type LinkMessage = { id: string; occurredAt: Date } & (
  | { topic: 'kick.account'; kind: 'LINKED' | 'NEEDS_RELINK' }
  | { topic: 'chat.subscription'; state: 'FAILED'; error: string }
);

export type LinkStatus = 'active' | 'needs-relink';

/** Which link the OAuth round trip is for: both come back on the one registered callback URL. */
export type OAuthFlow = 'streamer' | 'bot-account';

export interface OAuthStateDoc extends Document {
  /** sha256 of the state: the state itself only travels in the browser's URL. */
  _id: string;
  /** The streamer linking their channel, or the admin linking the platform's bot account. */
  userId: string;
  /** Absent on states stored before the bot account existed: a streamer link. */
  flow?: OAuthFlow;
  codeVerifier: string;
  /**
   * sha256 of the key given to the starting browser in a cookie (oauth-browser.ts): the callback
   * goes on only in that browser. Absent on states stored before the binding: those are refused.
   */
  browserKeyHash?: string;
  createdAt: Date;
  usedAt?: Date;
}

/**
 * The platform's bot account (one, linked by a super admin): a link like a streamer's, kept in its
 * own collection under the fixed id `botAccountId`; its tokens are sealed to that id.
 */
export const botAccountId = 'bot-account';

/** How one channel's replies go out when no bot account is linked (chat-sender.ts). */
export interface SenderStateDoc extends Document {
  /** The broadcaster user id. */
  _id: string;
  /** When Kick last refused `type: "bot"` here; the channel posts as the streamer until a day later. */
  botRefusedAt: Date | null;
  /** Kick's words when it refused `type: "bot"`. */
  botRefusal: string;
  /** The last failed reply, in a streamer's words; empty once a reply went out again. */
  lastError: string;
  lastErrorAt: Date | null;
}

/** Token reads and writes of one kind of link (the streamers', or the bot account): kick-tokens.ts. */
export interface TokenHolders {
  byId(id: string): Promise<LinkDoc | null>;
  /** Stores refreshed tokens, only if nobody wrote since `expectedVersion`; null otherwise. */
  saveTokens(
    id: string,
    expectedVersion: number,
    tokens: Pick<LinkDoc, 'accessToken' | 'refreshToken' | 'accessExpiresAt' | 'scopes' | 'tokensUpdatedAt'>,
  ): Promise<LinkDoc | null>;
  /** Active → needs-relink; null when it was not active (someone else already did it, or relinked). */
  markNeedsRelink(id: string, expectedVersion: number): Promise<LinkDoc | null>;
}

/** A webhook claim as MongoDB keeps it (Store.claimSet; the embedded store keeps a log line instead). */
export interface WebhookMessageDoc extends Document {
  /** Kick-Event-Message-Id. */
  _id: string;
  receivedAt: Date;
}

/**
 * A correctly signed delivery that could not be used (kick-api.md §8.10): kept for the super
 * admin to see and replay. `_id` is its Kick-Event-Message-Id, so a duplicate is kept once.
 */
export interface DeadLetterDoc extends Document {
  _id: string;
  /** The Kick-Event-* headers as received (the signature too, for the record). */
  headers: {
    messageId: string;
    subscriptionId: string;
    signature: string;
    timestamp: string;
    eventType: string;
    eventVersion: string;
  };
  /** The body as received, read as UTF-8. */
  rawBody: string;
  /** Why it could not be used; starts with a short code (webhook-payloads.ts parseDelivery). */
  reason: string;
  /** The channel, when the body names one. */
  broadcasterUserId: string | null;
  /** Kick's timestamp header, parsed. */
  sentAt: Date;
  receivedAt: Date;
  /** Set by a replay that still could not use it. */
  replayedAt?: Date;
}

/** What kick-link did with one chat.send, kept with its claim so that chat.sent survives a crash. */
export interface SendOutcome {
  isSent: boolean;
  error: string;
  messageId: string;
  content: string;
  sentAt: Date;
}

/** What a claimed chat.send posts, kept with its claim so that a reply survives a crash while queued. */
export interface StoredReply {
  broadcasterUserId: string;
  ownerUserId: string;
  content: string;
  replyToMessageId?: string;
  replyToUsername?: string;
  /** ChatOrigin. */
  origin: number;
  sourceReceivedAt: Date | null;
  occurredAt: Date | null;
  /** chat.send's source_sent_at, the line's own time; absent on replies stored before it existed. */
  sourceSentAt?: Date | null;
}

/**
 * `queued`: claimed, Kick not called yet (any instance may take it); `posting`: taken by one worker,
 * never posted again (Kick may have posted it), and so the state a reply ends in once chat.sent has
 * left with its outcome (chat-sender.ts settle: nothing is written then); `done`: an outcome stored
 * because chat.sent could not be published, or by an earlier version. Claims stored before the
 * state existed have none and count as done.
 *
 * Which key was claimed is the claim set `chat-send-keys`; a document of `chat-send-claims` exists
 * only while a claim is `queued`, or keeps an outcome whose chat.sent could not be published (and
 * those an earlier version stored, one per chat.send). A claim without a document is `posting`.
 */
export type SendClaimState = 'queued' | 'posting' | 'done';

/**
 * A claim as `sendClaims.get` tells it: its document, or for a key the claim set holds without one,
 * `{ state: 'posting', outcome: null, isPublished: false }` with the claim's date as `claimedAt` and
 * `postingAt` (taken for posting then, or later from the queue).
 */
export interface SendClaimDoc extends Document {
  /** chat.send's idempotency key. */
  _id: string;
  claimedAt: Date;
  outcome: SendOutcome | null;
  isPublished: boolean;
  state?: SendClaimState;
  /** Only while `queued` (recovery reads it): a claim stored or moved to `posting` has none. */
  reply?: StoredReply;
  postingAt?: Date;
}

/**
 * A chat message id Kick returned for a line we posted: its webhook echo is the bot's own line. As
 * MongoDB keeps it (Store.claimSet; the embedded store keeps a log line instead). Documents of
 * earlier versions also have `broadcasterUserId`; nothing read it.
 */
export interface SentMessageDoc extends Document {
  _id: string;
  sentAt: Date;
}

/** Kickstand users as user.changed tells them: the admin calls tell "unknown user" from "no link". */
export interface KnownUserDoc extends Document {
  _id: string;
  username: string;
  isDeleted: boolean;
  updatedAt: Date;
}

export interface MetaDoc extends Document {
  _id: string;
  value: string;
}

export type NewLink = Omit<LinkDoc, '_id' | 'version' | 'status'>;

export const retention = {
  /**
   * Kick-Event-Message-Id claims: twice the 5-minute timestamp window. A delivery whose timestamp is
   * more than 5 minutes off is refused before its claim is looked at, so an older claim can stop
   * no duplicate; and there is one claim per chat line, so every extra minute kept costs memory on
   * the embedded store (60,000 claims a minute at 1,000 lines a second).
   */
  webhookMessageSeconds: 10 * 60,
  /**
   * chat.send claims (the keys, and the documents of queued claims and unpublished outcomes).
   * A copy of a chat.send that comes after its key's claim expired must be stopped by the age check
   * (chat-sender.ts: nothing is posted more than `maxLineAgeMs`, 8 minutes, after the line's own
   * time, chat.send's source_sent_at). That time is the same in every copy and at most the first
   * copy's arrival (messageTimeMs bounds Kick's created_at by it), so at most the first claim's
   * time: a copy claimed 10 minutes after the first is at least 10 minutes old, past the 8 (2
   * minutes to spare for clocks of other instances). The 8 minutes in turn leave room for Kick's
   * clock to run up to 5 minutes behind ours (the webhook check refuses more) while a reply is
   * still within its 2 minutes from receipt. The queue does not count: every call to Kick checks
   * the ages first. One key per
   * reply: 10 minutes at 200 replies a second are 120,000 claims (~90 B each) instead of two days
   * of documents (34.6 M, ~1 KB each; docs/performance.md, "Retention of the per-reply records").
   */
  sendClaimSeconds: 10 * 60,
  /**
   * Ids of the lines posted as the streamer: read only by the echo check (chat-sender.ts
   * createOwnLines), for a line from the channel itself that no memory of this process recognised,
   * i.e. its echo reached another instance or came after a restart. Kick echoes a line usually
   * within a second (kick-api.md §8.7); 10 minutes is what the in-memory check keeps too and as long
   * as the webhook claims. One id per reply: a day of them was ~17 million documents at 200 replies
   * a second on the embedded store's heap; 10 minutes in a claim set are ~120,000 Map entries
   * (docs/performance.md, "Store writes per command"). An echo later than that (a stall, or a dead
   * letter replayed by hand) is taken for the streamer's line.
   */
  sentMessageSeconds: 10 * 60,
  /** Dead letters: a week to look at them, and at most the newest 1,000. */
  deadLetterSeconds: 7 * 24 * 60 * 60,
  deadLetterLimit: 1000,
};

export interface KickLinkRepository {
  createIndexes(): Promise<void>;
  links: {
    byUser(userId: string): Promise<LinkDoc | null>;
    byKickUser(kickUserId: string): Promise<LinkDoc | null>;
    all(): Promise<LinkDoc[]>;
    /**
     * Creates or replaces the user's link (status active, a new version) with the messages it owes.
     * Throws DuplicateKeyError when another user holds this Kick account.
     */
    save(userId: string, link: NewLink, messages?: readonly LinkMessage[]): Promise<LinkDoc>;
    /** Stores refreshed tokens, only if nobody wrote since `expectedVersion`; null otherwise. */
    saveTokens(
      userId: string,
      expectedVersion: number,
      tokens: Pick<LinkDoc, 'accessToken' | 'refreshToken' | 'accessExpiresAt' | 'scopes' | 'tokensUpdatedAt'>,
    ): Promise<LinkDoc | null>;
    /**
     * Active → needs-relink, with the messages that owes; null when it was not active (someone else
     * already did it, or relinked).
     */
    markNeedsRelink(userId: string, expectedVersion: number, messages: readonly LinkMessage[]): Promise<LinkDoc | null>;
    remove(userId: string): Promise<boolean>;
    /** The links, for the platform's outbox relay. */
    outboxCollection: Collection<LinkDoc>;
  };
  /** The platform's bot account (id `botAccountId`). */
  botAccount: TokenHolders & {
    get(): Promise<LinkDoc | null>;
    save(link: NewLink): Promise<LinkDoc>;
    remove(): Promise<boolean>;
  };
  senderStates: {
    get(broadcasterUserId: string): Promise<SenderStateDoc | null>;
    botRefused(broadcasterUserId: string, at: Date, reason: string): Promise<void>;
    /** `type: "bot"` worked again: the channel goes back to it. */
    botAccepted(broadcasterUserId: string): Promise<void>;
    failed(broadcasterUserId: string, error: string, at: Date): Promise<void>;
    /** A reply went out: the last error is over. */
    succeeded(broadcasterUserId: string): Promise<void>;
  };
  oauthStates: {
    insert(state: OAuthStateDoc): Promise<void>;
    /** Marks the state used and returns it, once; null when unknown, used already or expired. */
    consume(stateHash: string, now: Date, maxAgeSeconds: number): Promise<OAuthStateDoc | null>;
  };
  webhookMessages: {
    /** False when the id was claimed before (a duplicate delivery). */
    claim(messageId: string, now: Date): Promise<boolean>;
    release(messageId: string): Promise<void>;
  };
  deadLetters: {
    /** Keeps it unless the same message id is kept already; then trims to the newest 1,000. */
    keep(letter: DeadLetterDoc): Promise<void>;
    /** Newest first. */
    list(options: { skip: number; limit: number }): Promise<DeadLetterDoc[]>;
    count(): Promise<number>;
    get(id: string): Promise<DeadLetterDoc | null>;
    /** A replay could not use it either: the reason it failed with now. */
    markReplayed(id: string, reason: string, now: Date): Promise<void>;
    remove(id: string): Promise<boolean>;
  };
  sendClaims: {
    /**
     * Claims the key with its reply in state `queued` (a document), or `posting` without it when the
     * caller calls Kick at once (no startPosting needed; the claim set's key only); false when it was
     * claimed before (within retention.sendClaimSeconds).
     */
    claim(idempotencyKey: string, now: Date, reply: StoredReply, state?: 'queued' | 'posting'): Promise<boolean>;
    get(idempotencyKey: string): Promise<SendClaimDoc | null>;
    /**
     * `queued` → `posting` (the queued document goes, the key's claim stays), atomically: true for
     * the one caller that may call Kick.
     */
    startPosting(idempotencyKey: string, now: Date): Promise<boolean>;
    /** Claims still `queued` that were claimed at or before `claimedBefore`, oldest first. */
    queued(claimedBefore: Date, limit: number): Promise<SendClaimDoc[]>;
    /**
     * Stores the outcome (a `done` document under the claim's date), and whether chat.sent has left
     * with it (chat-sender.ts writes it only when it has not).
     */
    recordOutcome(idempotencyKey: string, outcome: SendOutcome, isPublished: boolean): Promise<void>;
    markPublished(idempotencyKey: string): Promise<void>;
  };
  sentMessages: {
    record(messageId: string, now: Date): Promise<void>;
    exists(messageId: string): Promise<boolean>;
  };
  knownUsers: {
    save(user: Omit<KnownUserDoc, '_id'> & { _id: string }): Promise<void>;
    get(userId: string): Promise<KnownUserDoc | null>;
  };
  meta: {
    get(id: string): Promise<string | null>;
    delete(id: string): Promise<void>;
  };
}

async function insertOnce<T extends Document>(collection: Collection<T>, doc: T): Promise<boolean> {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (error) {
    if (error instanceof DuplicateKeyError) return false;
    throw error;
  }
}

const newestLetterFirst = { receivedAt: -1, _id: -1 } as const;

export function createKickLinkRepository(store: Store, options: { oauthStateSeconds: number }): KickLinkRepository {
  const links = store.collection<LinkDoc>('kick-links');
  const oauthStates = store.collection<OAuthStateDoc>('oauth-states');
  // in memory with a log on the embedded store, documents on MongoDB (Store.claimSet)
  const webhookClaims = store.claimSet('webhook-messages', {
    expireAfterSeconds: retention.webhookMessageSeconds,
    dateField: 'receivedAt',
  });
  // which keys were claimed: a claim set (see retention); the documents only while a claim is queued
  // or keeps an unpublished outcome
  const sendClaimKeys = store.claimSet('chat-send-keys', {
    expireAfterSeconds: retention.sendClaimSeconds,
    dateField: 'claimedAt',
  });
  const sendClaims = store.collection<SendClaimDoc>('chat-send-claims');
  // only ever asked "posted by us?" by id, within a window: a claim set (see retention)
  const sentMessages = store.claimSet('sent-chat-messages', {
    expireAfterSeconds: retention.sentMessageSeconds,
    dateField: 'sentAt',
  });
  const knownUsers = store.collection<KnownUserDoc>('known-users');
  const deadLetters = store.collection<DeadLetterDoc>('webhook-dead-letters');
  const meta = store.collection<MetaDoc>('kick-link-meta');
  const botAccount = store.collection<LinkDoc>('kick-bot-account');
  const senderStates = store.collection<SenderStateDoc>('chat-sender-states');

  /**
   * Every unexpired claim document's key into the claim set. After an upgrade, the documents an
   * earlier version stored (one per chat.send) are the only record of those keys; afterwards the
   * few documents there are (queued, unpublished) are claimed already and cost a lookup each.
   * Oldest first: the embedded claim set drops expired claims from the front of its claim order.
   */
  async function claimKeysOfDocuments(): Promise<void> {
    const documents = await sendClaims.find({}, { sort: { claimedAt: 1 } });
    for (let start = 0; start < documents.length; start += 100) {
      await Promise.all(documents.slice(start, start + 100).map((doc) => sendClaimKeys.claim(doc._id, doc.claimedAt)));
    }
  }

  async function setState(broadcasterUserId: string, fields: Partial<Omit<SenderStateDoc, '_id'>>): Promise<void> {
    await senderStates.updateOne({ _id: broadcasterUserId }, { $set: fields }, { upsert: true });
  }

  return {
    async createIndexes() {
      await links.createIndex({ fields: { kickUserId: 1 }, unique: true });
      await oauthStates.createIndex({ fields: { createdAt: 1 }, expireAfterSeconds: options.oauthStateSeconds });
      await webhookClaims.open();
      // an earlier version's index of 2 days gets the new expiry (MongoDB: collMod in place)
      await sendClaims.createIndex({ fields: { claimedAt: 1 }, expireAfterSeconds: retention.sendClaimSeconds });
      // the recovery pass looks for claims still queued (chat-sender.ts)
      await sendClaims.createIndex({ fields: { state: 1, claimedAt: 1 } });
      await sendClaimKeys.open();
      await claimKeysOfDocuments();
      await sentMessages.open();
      await deadLetters.createIndex({ fields: { receivedAt: 1 }, expireAfterSeconds: retention.deadLetterSeconds });
    },

    links: {
      byUser: (userId) => links.findOne({ _id: userId }),
      byKickUser: (kickUserId) => links.findOne({ kickUserId }),
      all: () => links.find({}),
      async save(userId, link, messages = []) {
        const saved = await links.findOneAndUpdate(
          { _id: userId },
          { $set: { ...link, status: 'active' }, $inc: { version: 1 }, $push: { outbox: { $each: [...messages] } } },
          { upsert: true, returnDocument: 'after' },
        );
        if (!saved) throw new Error(`the link of user ${userId} was not saved`);
        return saved;
      },
      saveTokens: (userId, expectedVersion, tokens) =>
        links.findOneAndUpdate(
          { _id: userId, version: expectedVersion, status: 'active' },
          { $set: tokens, $inc: { version: 1 } },
          { returnDocument: 'after' },
        ),
      markNeedsRelink: (userId, expectedVersion, messages) =>
        links.findOneAndUpdate(
          { _id: userId, version: expectedVersion, status: 'active' },
          { $set: { status: 'needs-relink' }, $inc: { version: 1 }, $push: { outbox: { $each: [...messages] } } },
          { returnDocument: 'after' },
        ),
      remove: async (userId) => (await links.deleteOne({ _id: userId })) > 0,
      outboxCollection: links,
    },

    botAccount: {
      get: () => botAccount.findOne({ _id: botAccountId }),
      byId: (id) => botAccount.findOne({ _id: id }),
      async save(link) {
        const saved = await botAccount.findOneAndUpdate(
          { _id: botAccountId },
          { $set: { ...link, status: 'active' }, $inc: { version: 1 } },
          { upsert: true, returnDocument: 'after' },
        );
        if (!saved) throw new Error('the bot account was not saved');
        return saved;
      },
      saveTokens: (id, expectedVersion, tokens) =>
        botAccount.findOneAndUpdate(
          { _id: id, version: expectedVersion, status: 'active' },
          { $set: tokens, $inc: { version: 1 } },
          { returnDocument: 'after' },
        ),
      markNeedsRelink: (id, expectedVersion) =>
        botAccount.findOneAndUpdate(
          { _id: id, version: expectedVersion, status: 'active' },
          { $set: { status: 'needs-relink' }, $inc: { version: 1 } },
          { returnDocument: 'after' },
        ),
      remove: async () => (await botAccount.deleteOne({ _id: botAccountId })) > 0,
    },

    senderStates: {
      async get(broadcasterUserId) {
        const found: Partial<SenderStateDoc> | null = await senderStates.findOne({ _id: broadcasterUserId });
        if (!found) return null;
        // an upsert stores only the fields it set: the others read as "nothing happened"
        return {
          _id: broadcasterUserId,
          botRefusedAt: found.botRefusedAt ?? null,
          botRefusal: found.botRefusal ?? '',
          lastError: found.lastError ?? '',
          lastErrorAt: found.lastErrorAt ?? null,
        };
      },
      botRefused: (broadcasterUserId, at, reason) =>
        setState(broadcasterUserId, { botRefusedAt: at, botRefusal: reason }),
      botAccepted: (broadcasterUserId) => setState(broadcasterUserId, { botRefusedAt: null, botRefusal: '' }),
      failed: (broadcasterUserId, error, at) => setState(broadcasterUserId, { lastError: error, lastErrorAt: at }),
      succeeded: (broadcasterUserId) => setState(broadcasterUserId, { lastError: '', lastErrorAt: null }),
    },

    oauthStates: {
      async insert(state) {
        await oauthStates.insertOne(state);
      },
      async consume(stateHash, now, maxAgeSeconds) {
        const state = await oauthStates.findOneAndUpdate(
          { _id: stateHash, usedAt: { $exists: false } },
          { $set: { usedAt: now } },
          { returnDocument: 'before' },
        );
        // the TTL sweep is periodic: the age is checked here too
        if (!state || now.getTime() - state.createdAt.getTime() > maxAgeSeconds * 1000) return null;
        return state;
      },
    },

    webhookMessages: {
      claim: (messageId, now) => webhookClaims.claim(messageId, now),
      release: (messageId) => webhookClaims.release(messageId),
    },

    deadLetters: {
      async keep(letter) {
        if (!(await insertOnce(deadLetters, letter))) return;
        // rare (real Kick's drift), so the trim runs on every one kept
        const overflow = await deadLetters.find({}, { sort: newestLetterFirst, skip: retention.deadLetterLimit });
        if (overflow.length > 0) await deadLetters.deleteMany({ _id: { $in: overflow.map((doc) => doc._id) } });
      },
      list: ({ skip, limit }) => deadLetters.find({}, { sort: newestLetterFirst, skip, limit }),
      count: () => deadLetters.count({}),
      get: (id) => deadLetters.findOne({ _id: id }),
      async markReplayed(id, reason, now) {
        await deadLetters.updateOne({ _id: id }, { $set: { reason, replayedAt: now } });
      },
      remove: async (id) => (await deadLetters.deleteOne({ _id: id })) > 0,
    },

    sendClaims: {
      async claim(idempotencyKey, now, reply, state = 'queued') {
        // taken for posting at once: the key alone (no document; a posting claim is never read)
        if (state === 'posting') return sendClaimKeys.claim(idempotencyKey, now);
        // queued: the key first, then the document with the reply. A crash between the two loses
        // this reply (as a crash before a posting claim's call does), but never lets it be posted
        // twice: were the document first, a copy of the chat.send coming to another instance
        // would claim the free key and post, and recovery would post the document's reply again.
        if (!(await sendClaimKeys.claim(idempotencyKey, now))) return false;
        const queued = { _id: idempotencyKey, claimedAt: now, outcome: null, isPublished: false, state, reply };
        try {
          // a document of the key already (an outcome kept, an earlier version's claim): seen before
          return await insertOnce(sendClaims, queued);
        } catch (error) {
          // not stored: the key goes back, so that a redelivery of the chat.send is taken
          await sendClaimKeys.release(idempotencyKey);
          throw error;
        }
      },
      async get(idempotencyKey) {
        const doc = await sendClaims.findOne({ _id: idempotencyKey });
        if (doc) return doc;
        const claimedAt = await sendClaimKeys.claimedAt(idempotencyKey);
        if (!claimedAt) return null;
        return {
          _id: idempotencyKey,
          claimedAt,
          outcome: null,
          isPublished: false,
          state: 'posting',
          postingAt: claimedAt,
        };
      },
      // the queued document goes: the key's claim stops copies, and a posting claim is never read
      startPosting: async (idempotencyKey) =>
        (await sendClaims.deleteOne({ _id: idempotencyKey, state: 'queued' })) > 0,
      queued: (claimedBefore, limit) =>
        sendClaims.find({ state: 'queued', claimedAt: { $lte: claimedBefore } }, { sort: { claimedAt: 1 }, limit }),
      async recordOutcome(idempotencyKey, outcome, isPublished) {
        // kept under the claim's date, so that it expires with the key's claim
        const claimedAt = (await sendClaimKeys.claimedAt(idempotencyKey)) ?? outcome.sentAt;
        await sendClaims.updateOne(
          { _id: idempotencyKey },
          { $set: { claimedAt, outcome, state: 'done', isPublished }, $unset: { reply: true } },
          { upsert: true },
        );
      },
      async markPublished(idempotencyKey) {
        await sendClaims.updateOne({ _id: idempotencyKey }, { $set: { isPublished: true } });
      },
    },

    sentMessages: {
      async record(messageId, now) {
        // Kick's ids are unique: a claim that loses is the same id recorded already
        await sentMessages.claim(messageId, now);
      },
      exists: (messageId) => sentMessages.has(messageId),
    },

    knownUsers: {
      async save(user) {
        const { _id, ...fields } = user;
        await knownUsers.updateOne({ _id }, { $set: fields }, { upsert: true });
      },
      get: (userId) => knownUsers.findOne({ _id: userId }),
    },

    meta: {
      get: async (id) => (await meta.findOne({ _id: id }))?.value ?? null,
      async delete(id) {
        await meta.deleteOne({ _id: id });
      },
    },
  };
}
