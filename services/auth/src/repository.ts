import type { Role } from '@kickstand/platform/auth';
import { inSlices } from '@kickstand/platform/batch';
import { DuplicateKeyError, type Filter, type SortOrder, type Store } from '@kickstand/platform/store';
import { inProcessRedeliveryWindowSeconds } from '@kickstand/platform/config';
import type { RateLimitDoc } from './store-rate-limiter';

/** The linked Kick account, as the kick.account events describe it (never a token). */
export interface KickAccountDoc {
  kickUserId: string;
  kickUsername: string;
  kickEmail: string;
  profilePicture: string;
  linkedAt: Date;
  /** Kick refused the refresh token: the streamer has to link again. Kept, not shown. */
  needsRelink: boolean;
}

export type UserChangeKindName = 'CREATED' | 'ACTIVATED' | 'DEACTIVATED' | 'SIGNED_OUT' | 'ROLE_CHANGED';

/**
 * A user.changed message waiting to be published (the outbox). It is written in the same atomic
 * update as the state change it announces and removed once the bus accepted it, so a crash or a
 * bus outage between the two only delays the message.
 */
export interface PendingUserChange {
  eventId: string;
  kind: UserChangeKindName;
  occurredAt: Date;
  username: string;
  role: Role;
  isActive: boolean;
}

export interface UserDoc {
  _id: string;
  username: string;
  /** Uniqueness is case-insensitive: these carry the unique indexes. */
  usernameLower: string;
  email: string;
  emailLower: string;
  passwordHash: string;
  role: Role;
  isActive: boolean;
  /**
   * Goes up at every logout; tokens carry the version they were issued under and every service
   * refuses older ones (user.changed carries it). Absent on users made before it existed: 0.
   */
  tokenVersion?: number;
  lastLogin: Date | null;
  createdAt: Date;
  updatedAt: Date;
  // The read model, kept current from other services' events; each part remembers the time of
  // the event it came from, so an older event delivered late never overwrites a newer one.
  botEnabled: boolean;
  botEnabledAt: Date | null;
  kickAccount: KickAccountDoc | null;
  kickAccountAt: Date | null;
  commandCount: number;
  outbox: PendingUserChange[];
}

/** One command a user has (or had: `isPresent` false is a tombstone that stops a late ADDED). */
export interface UserCommandDoc {
  _id: string;
  userId: string;
  command: string;
  isPresent: boolean;
  changedAt: Date;
}

export interface AuditEntryDoc {
  /** The event id: an entry delivered twice is stored once. */
  _id: string;
  occurredAt: Date;
  actor: { id: string; username: string };
  action: string;
  target: { type: string; id: string; username: string };
  details: Record<string, string>;
  /** 'auth' for auth's own actions, 'audit.recorded' for those other services reported. */
  source: string;
}

/**
 * How often one command ran on one day (UTC), over all streamers: `_id` is `<YYYY-MM-DD>:<command>`.
 * Which executions were counted is kept apart, in command-executions (see `commandUsage.record`).
 */
/** Which kind of command answered (command.executed's kind). */
export type CommandKindName = 'custom' | 'built-in' | 'game';

export interface CommandUsageDoc {
  _id: string;
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** Lowercased, without the $ prefix. */
  command: string;
  /** Absent on documents from before kinds were counted: those were all custom commands. */
  kind?: CommandKindName;
  count: number;
  /**
   * The executions being counted right now (their seen keys): each is removed once its execution
   * document says it was counted, so this stays as small as the number of counts in flight.
   */
  pending?: Record<string, true>;
}

/**
 * One command.executed **not counted yet**, by its seen key: the log behind auth's in-memory counts
 * (command-counter.ts). Inserting it is what makes a delivery count once while it waits (a
 * redelivery finds it); a flush assigns uncounted ones to a flush id, adds them to the day counts,
 * moves their seen keys to the counted set (`countedExecutionsSet`) and deletes them, so a restart
 * loses none and counts none twice. It never expires: the executions of an instance that stopped
 * wait here for any instance to count them, however long the outage.
 *
 * Earlier versions kept every execution for three days (`expiresAt`), counted ones marked
 * `isCounted: true`: those stay the seen keys of their executions until their TTL index removes them.
 */
export interface CommandExecutionDoc {
  _id: string;
  /** The command-usage document it is counted in. */
  usageId: string;
  date: string;
  command: string;
  kind: CommandKindName;
  /** false; true only on a counted execution an earlier version kept (until its `expiresAt`). */
  isCounted: boolean;
  claimedAt: Date;
  /** The flush that counts it (set once, by the first flush to take it), and when it took it. */
  flushId?: string;
  flushAt?: Date;
  /** Earlier versions only (three days after `claimedAt`); an uncounted one loses it at start. */
  expiresAt?: Date;
}

/** One execution to count, as the counter keeps it in memory until its flush. */
export type CommandExecution = Pick<CommandExecutionDoc, 'usageId' | 'date' | 'command' | 'kind'> & { seenKey: string };

/**
 * The seen keys of counted executions, a claim set (the embedded store: ~28 bytes each outside the
 * V8 heap, claim-table.ts, instead of an ~850-byte document; MongoDB: one small document each, expired by a TTL index). A
 * key is kept for the bus's redelivery window (`redeliveryWindowSeconds`, from the counting flush).
 */
export const countedExecutionsSet = 'counted-command-executions';

/**
 * How many documents one write of a count flush touches: a flush takes every execution of its
 * 5 s (~1,000 at 1,000 msg/s with a fifth of the lines commands), and one embedded-store
 * `updateMany`/`deleteMany` over all of them held the owner thread for 30–60 ms; in slices of 100
 * with a pause between them (`inSlices`), a few ms each (docs/performance.md, "The owner's long tasks").
 */
export const flushSliceSize = 100;
/*
 * sliceFirst: NeDB takes a query's candidates from the index of its last field compared by plain
 * equality, else of its last `$in` field, and matches each candidate against the whole query; so
 * a slice's filter has no plain equality (`flushId: { $in: [id] }`, `isCounted: { $ne: true }`,
 * the same documents) and its ids last: it reads its 100 documents, not every uncounted one
 * (~1,000 more per slice). MongoDB plans its own way.
 */

export type UserSortField = 'createdAt' | 'username' | 'email' | 'lastLogin';

export interface UserListQuery {
  search?: string;
  role?: Role;
  isActive?: boolean;
  hasKick?: boolean;
  sort: UserSortField;
  order: 'asc' | 'desc';
  skip: number;
  limit: number;
}

export interface UserListPage {
  users: UserDoc[];
  total: number;
}

export interface AuditListQuery {
  action?: string;
  skip: number;
  limit: number;
}

export type KickAccountChange =
  { kind: 'linked'; account: Omit<KickAccountDoc, 'needsRelink'> } | { kind: 'unlinked' } | { kind: 'needs-relink' };

/** Which unique field a new user collided on. */
export class UserExistsError extends Error {
  constructor(readonly field: 'email' | 'username') {
    super(`a user with this ${field} exists`);
    this.name = 'UserExistsError';
  }
}

const sortFields: Record<UserSortField, string> = {
  createdAt: 'createdAt',
  // case-insensitive order, as a person reads a list of names
  username: 'usernameLower',
  email: 'emailLower',
  lastLogin: 'lastLogin',
};

/** Regular-expression metacharacters in a search text match themselves. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Applies an event dated `at` only if nothing newer was applied to that part before. */
const notNewerThan = (field: string, at: Date): Filter => ({
  $or: [{ [field]: null }, { [field]: { $lte: at } }],
});

export type AuthRepository = ReturnType<typeof createAuthRepository>;

export interface AuthRepositoryOptions {
  /**
   * How long a counted execution's seen key is kept (AuthServiceOptions.redeliveryWindowSeconds);
   * the in-process bus's window by default. On the embedded store the first repository of a store
   * to name the counted set sets it.
   */
  redeliveryWindowSeconds?: number;
}

/**
 * auth's data through the store port: users (with the read model), user-commands, audit-log,
 * command-usage, rate-limits.
 */
export function createAuthRepository(store: Store, options: AuthRepositoryOptions = {}) {
  const users = store.collection<UserDoc>('users');
  const userCommands = store.collection<UserCommandDoc>('user-commands');
  const auditLog = store.collection<AuditEntryDoc>('audit-log');
  const commandUsage = store.collection<CommandUsageDoc>('command-usage');
  const commandExecutions = store.collection<CommandExecutionDoc>('command-executions');
  const redeliveryWindowSeconds = options.redeliveryWindowSeconds ?? inProcessRedeliveryWindowSeconds;
  const countedExecutions = store.claimSet(countedExecutionsSet, {
    expireAfterSeconds: redeliveryWindowSeconds,
    dateField: 'countedAt',
  });
  const rateLimits = store.collection<RateLimitDoc>('rate-limits');

  /** The day's count + `by`, unless the flush `flushId` is pending in it already (then false). */
  async function incrementOnce(
    { usageId, date, command, kind }: Omit<CommandExecution, 'seenKey'>,
    flushId: string,
    by: number,
  ): Promise<boolean> {
    const count = () =>
      commandUsage.updateOne(
        { _id: usageId, [`pending.${flushId}`]: { $exists: false } },
        { $inc: { count: by }, $set: { [`pending.${flushId}`]: true }, $setOnInsert: { date, command, kind } },
        { upsert: true },
      );
    try {
      await count();
      return true;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    // the day's document exists but the filter did not match it: either this flush is pending in
    // it, or another flush created the document at the same moment; once more tells the two
    // apart (the document now exists, so a second duplicate means "pending")
    try {
      await count();
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  async function whichUserExists(user: Pick<UserDoc, 'emailLower' | 'usernameLower'>): Promise<UserExistsError> {
    if (await users.findOne({ emailLower: user.emailLower })) return new UserExistsError('email');
    return new UserExistsError('username');
  }

  return {
    async createIndexes(): Promise<void> {
      await users.createIndex({ fields: { emailLower: 1 }, unique: true });
      await users.createIndex({ fields: { usernameLower: 1 }, unique: true });
      await users.createIndex({ fields: { role: 1 } });
      await users.createIndex({ fields: { createdAt: -1 } });
      await userCommands.createIndex({ fields: { userId: 1 } });
      await auditLog.createIndex({ fields: { occurredAt: -1 } });
      await auditLog.createIndex({ fields: { action: 1 } });
      await auditLog.createIndex({ fields: { 'details.channelOwnerId': 1 } });
      await commandUsage.createIndex({ fields: { date: 1 } });
      // the counted executions earlier versions kept expire by it (an execution logged now has no expiresAt)
      await commandExecutions.createIndex({ fields: { expiresAt: 1 }, expireAfterSeconds: 0 });
      // recovery and a flush's read-back find the uncounted executions (a few seconds' worth) by these
      await commandExecutions.createIndex({ fields: { isCounted: 1 } });
      await commandExecutions.createIndex({ fields: { flushId: 1 } });
      await rateLimits.createIndex({ fields: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    users: {
      /** Throws UserExistsError when the email or the username (in any letter case) is taken. */
      async insert(user: UserDoc): Promise<UserDoc> {
        try {
          return await users.insertOne(user);
        } catch (error) {
          if (error instanceof DuplicateKeyError) {
            // the user's _id is a fresh UUID, so the collision is on email or username
            throw await whichUserExists(user);
          }
          throw error;
        }
      },
      findById: (id: string) => users.findOne({ _id: id }),
      findByEmail: (email: string) => users.findOne({ emailLower: email.toLowerCase() }),
      findByUsername: (username: string) => users.findOne({ usernameLower: username.toLowerCase() }),
      countSuperAdmins: () => users.count({ role: 'SUPER_ADMIN' }),
      /** Every user, and the active ones (the admin dashboard's figures). */
      async countByActive(): Promise<{ total: number; active: number }> {
        const [total, active] = await Promise.all([users.count(), users.count({ isActive: true })]);
        return { total, active };
      },

      async list(query: UserListQuery): Promise<UserListPage> {
        const clauses: Filter[] = [];
        if (query.search) {
          const pattern = new RegExp(escapeRegExp(query.search), 'i');
          clauses.push({ $or: [{ username: { $regex: pattern } }, { email: { $regex: pattern } }] });
        }
        if (query.role) clauses.push({ role: query.role });
        if (query.isActive !== undefined) clauses.push({ isActive: query.isActive });
        if (query.hasKick !== undefined) clauses.push({ kickAccount: query.hasKick ? { $ne: null } : null });
        const filter: Filter = clauses.length > 0 ? { $and: clauses } : {};
        const direction: SortOrder = query.order === 'asc' ? 1 : -1;
        // _id breaks ties, so pages never overlap or skip a user
        const sort = { [sortFields[query.sort]]: direction, _id: direction };
        const [found, total] = await Promise.all([
          users.find(filter, { sort, skip: query.skip, limit: query.limit }),
          users.count(filter),
        ]);
        return { users: found, total };
      },

      recordLogin: (id: string, at: Date) =>
        users.findOneAndUpdate({ _id: id }, { $set: { lastLogin: at, updatedAt: at } }),

      /** Sets isActive and queues its user.changed in the same write; null when there is no such user. */
      setActive: (id: string, isActive: boolean, change: PendingUserChange) =>
        users.findOneAndUpdate(
          { _id: id },
          { $set: { isActive, updatedAt: change.occurredAt }, $push: { outbox: change } },
        ),

      /** Raises the token version (older tokens are refused) and queues its user.changed in the same write. */
      signOut: (id: string, change: PendingUserChange) =>
        users.findOneAndUpdate(
          { _id: id },
          { $inc: { tokenVersion: 1 }, $set: { updatedAt: change.occurredAt }, $push: { outbox: change } },
        ),

      /**
       * Sets the role if it is still `from` (a concurrent change wins once) and queues its user.changed
       * in the same write; null when the user is unknown or no longer has `from`.
       */
      setRole: (id: string, from: Role, to: Role, change: PendingUserChange) =>
        users.findOneAndUpdate(
          { _id: id, role: from },
          { $set: { role: to, updatedAt: change.occurredAt }, $push: { outbox: change } },
        ),

      /** Makes the user an active super administrator and queues its user.changed in the same write. */
      promote: (id: string, change: PendingUserChange) =>
        users.findOneAndUpdate(
          { _id: id },
          { $set: { role: 'SUPER_ADMIN', isActive: true, updatedAt: change.occurredAt }, $push: { outbox: change } },
        ),

      /** False when the user is unknown or a newer bot.status was applied already. */
      async applyBotEnabled(userId: string, isEnabled: boolean, at: Date): Promise<boolean> {
        const result = await users.updateOne(
          { _id: userId, ...notNewerThan('botEnabledAt', at) },
          { $set: { botEnabled: isEnabled, botEnabledAt: at } },
        );
        return result.matchedCount > 0;
      },

      async applyKickAccount(userId: string, change: KickAccountChange, at: Date): Promise<boolean> {
        const filter = { _id: userId, ...notNewerThan('kickAccountAt', at) };
        switch (change.kind) {
          case 'linked':
            return (
              (
                await users.updateOne(filter, {
                  $set: { kickAccount: { ...change.account, needsRelink: false }, kickAccountAt: at },
                })
              ).matchedCount > 0
            );
          case 'unlinked':
            return (await users.updateOne(filter, { $set: { kickAccount: null, kickAccountAt: at } })).matchedCount > 0;
          case 'needs-relink':
            return (
              (
                await users.updateOne(
                  { ...filter, kickAccount: { $ne: null } },
                  { $set: { 'kickAccount.needsRelink': true, kickAccountAt: at } },
                )
              ).matchedCount > 0
            );
        }
      },

      setCommandCount: (userId: string, count: number) =>
        users.updateOne({ _id: userId }, { $set: { commandCount: count } }),
    },

    userCommands: {
      /**
       * Records that the user has (or no longer has) the command, unless a newer change of the same
       * command was recorded already. Replays and late deliveries leave the same state.
       */
      async record(userId: string, command: string, isPresent: boolean, at: Date): Promise<void> {
        const name = command.toLowerCase();
        const id = `${userId}:${name}`;
        try {
          await userCommands.updateOne(
            { _id: id, ...notNewerThan('changedAt', at) },
            { $set: { userId, command: name, isPresent, changedAt: at } },
            { upsert: true },
          );
        } catch (error) {
          // the document exists with a newer change: the upsert's insert found the _id taken
          if (!(error instanceof DuplicateKeyError)) throw error;
        }
      },
      count: (userId: string) => userCommands.count({ userId, isPresent: true }),
      /** Every user's present commands: the sum of the users' _count.commands. */
      countAll: () => userCommands.count({ isPresent: true }),
    },

    auditLog: {
      /** False when an entry with this id is stored already (a redelivery). */
      async insert(entry: AuditEntryDoc): Promise<boolean> {
        try {
          await auditLog.insertOne(entry);
          return true;
        } catch (error) {
          if (error instanceof DuplicateKeyError) return false;
          throw error;
        }
      },
      async list(query: AuditListQuery): Promise<{ entries: AuditEntryDoc[]; total: number }> {
        const filter: Filter = query.action ? { action: query.action } : {};
        const [entries, total] = await Promise.all([
          auditLog.find(filter, { sort: { occurredAt: -1, _id: -1 }, skip: query.skip, limit: query.limit }),
          auditLog.count(filter),
        ]);
        return { entries, total };
      },
      count: () => auditLog.count(),
      /** A channel's team events (their details name the channel owner), newest first. */
      listForChannel: (ownerId: string, limit: number): Promise<AuditEntryDoc[]> =>
        auditLog.find({ 'details.channelOwnerId': ownerId }, { sort: { occurredAt: -1, _id: -1 }, limit }),
    },

    commandUsage: {
      /**
       * Opens the counted set (before any other of these). Executions an earlier version logged
       * with a three-day expiry: an uncounted one loses it (it waits for its count however long);
       * a counted one older than the redelivery window goes now, the others stay until it expires.
       */
      async open(now: Date): Promise<void> {
        await countedExecutions.open();
        await commandExecutions.updateMany(
          { isCounted: false, expiresAt: { $exists: true } },
          { $unset: { expiresAt: true } },
        );
        await commandExecutions.deleteMany({
          isCounted: true,
          claimedAt: { $lt: new Date(now.getTime() - redeliveryWindowSeconds * 1000) },
        });
      },
      /**
       * Logs one execution to be counted: false when its seen key was seen already, a redelivery:
       * while uncounted its document is found (it is or will be counted by whoever logged it
       * first), once counted its key in the counted set. The document is inserted first and the
       * set asked after: a flush claims a key before it deletes the document (countFlush), so a key
       * is in one of the two at every moment, and a redelivery racing its count is found in one.
       * The one store write per execution; the counts themselves are added by `countFlush`.
       */
      async claim(execution: CommandExecution, now: Date): Promise<boolean> {
        const { seenKey, ...rest } = execution;
        try {
          await commandExecutions.insertOne({ _id: seenKey, ...rest, isCounted: false, claimedAt: now });
        } catch (error) {
          if (error instanceof DuplicateKeyError) return false;
          throw error;
        }
        if (!(await countedExecutions.has(seenKey))) return true;
        await commandExecutions.deleteOne({ _id: seenKey, isCounted: false, flushId: { $exists: false } });
        return false;
      },
      /** Whether the execution of this seen key was counted (within the redelivery window). */
      wasCounted: (seenKey: string): Promise<boolean> => countedExecutions.has(seenKey),
      /**
       * Deletes a logged execution no flush has taken, uncounted: one found counted already (left
       * by an instance that stopped between a redelivery's insert and its check in `claim`).
       */
      async discard(seenKey: string): Promise<void> {
        await commandExecutions.deleteOne({ _id: seenKey, isCounted: false, flushId: { $exists: false } });
      },
      /**
       * Gives the uncounted executions among `seenKeys` that no flush has taken yet to the flush
       * `flushId`; returns how many it took (fewer than asked when another flush took some).
       */
      async assign(seenKeys: readonly string[], flushId: string, now: Date): Promise<number> {
        // in slices: a flush takes ~1,000 executions at 1,000 msg/s (flushSliceSize)
        const matched = await inSlices(seenKeys, flushSliceSize, async (slice) => {
          const { matchedCount } = await commandExecutions.updateMany(
            // `$ne: true` is `false` here (every document has the field), and it leaves the embedded
            // store's NeDB to find the slice by its ids (sliceFirst), not among every uncounted one
            { isCounted: { $ne: true }, flushId: { $exists: false }, _id: { $in: slice } },
            { $set: { flushId, flushAt: now } },
          );
          return matchedCount;
        });
        return matched.reduce((sum, count) => sum + count, 0);
      },
      /** The executions of the flush `flushId` not marked counted yet. */
      assigned: (flushId: string): Promise<CommandExecutionDoc[]> =>
        commandExecutions.find({ flushId, isCounted: false }),
      /**
       * Uncounted executions nobody is counting: logged before `unassignedBefore` and taken by no
       * flush (their instance stopped before its flush), or taken by a flush that started before
       * `assignedBefore` and never finished.
       */
      abandoned: (unassignedBefore: Date, assignedBefore: Date, limit: number): Promise<CommandExecutionDoc[]> =>
        commandExecutions.find(
          {
            isCounted: false,
            $or: [
              { flushId: { $exists: false }, claimedAt: { $lt: unassignedBefore } },
              { flushAt: { $lt: assignedBefore } },
            ],
          },
          { limit },
        ),
      /**
       * Adds the executions of the flush `flushId` to their day counts, once: each day's count is
       * increased together with a `pending` mark of the flush, the executions' seen keys are then
       * claimed in the counted set (dated `now`), their documents deleted and the marks removed.
       * A flush repeated after a failure anywhere in between (by this instance or, once abandoned,
       * another) adds nothing twice: the marks stop a second increase, a key claimed already
       * stays claimed. The order is what keeps a count exact: a key is claimed only once its count
       * is in (so a claimed key means "counted"), and a document is deleted only once its key is
       * claimed (so a redelivery always finds one of the two).
       */
      async countFlush(flushId: string, executions: readonly CommandExecution[], now: Date): Promise<void> {
        const perUsage = new Map<string, { execution: CommandExecution; count: number }>();
        for (const execution of executions) {
          const entry = perUsage.get(execution.usageId);
          if (entry) entry.count += 1;
          else perUsage.set(execution.usageId, { execution, count: 1 });
        }
        // one day count after another, a slice of them between two pauses (~300 at 1,000 msg/s)
        await inSlices([...perUsage.values()], flushSliceSize, async (slice) => {
          for (const { execution, count } of slice) await incrementOnce(execution, flushId, count);
        });
        await inSlices(executions, flushSliceSize, (slice) =>
          Promise.all(slice.map(({ seenKey }) => countedExecutions.claim(seenKey, now))),
        );
        // an earlier version's flush left half done may have marked some of its executions counted:
        // those stay, the seen keys of their executions until they expire
        const seenKeys = executions.map(({ seenKey }) => seenKey);
        await inSlices(seenKeys, flushSliceSize, (slice) =>
          commandExecutions.deleteMany({ flushId: { $in: [flushId] }, isCounted: { $ne: true }, _id: { $in: slice } }),
        );
        // what is left of the flush (none unless a recovery was given only part of it): as before
        await commandExecutions.deleteMany({ flushId, isCounted: false });
        await inSlices([...perUsage.keys()], flushSliceSize, (slice) =>
          commandUsage.updateMany({ _id: { $in: slice } }, { $unset: { [`pending.${flushId}`]: true } }),
        );
      },
      /** Every day-and-command count from `fromDate` to `toDate` (YYYY-MM-DD, both included). */
      async between(
        fromDate: string,
        toDate: string,
      ): Promise<Array<Required<Pick<CommandUsageDoc, 'date' | 'command' | 'count' | 'kind'>>>> {
        const docs = await commandUsage.find({ date: { $gte: fromDate, $lte: toDate } }, { sort: { date: 1, _id: 1 } });
        return docs.map(({ date, command, count, kind }) => ({ date, command, count, kind: kind ?? 'custom' }));
      },
    },

    /** The sign-in throttle's counters (store-rate-limiter.ts owns their shape; a TTL index expires them). */
    rateLimitCollection: rateLimits,
    /** The users, for the platform's outbox relay (user.changed waits in each user's `outbox`). */
    outboxCollection: users,
  };
}
