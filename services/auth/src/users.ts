import { randomUUID } from 'node:crypto';
import { authMessages, type SameType, type Serialized, type Session as ContractSession } from '@kickstand/api-contract';
import type { Identity, Role, TokenSigner } from '@kickstand/platform/auth';
import type { Clock } from '@kickstand/platform/clock';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '@kickstand/platform/errors';
import type { Logger } from '@kickstand/platform/log';
import { systemActor, type AuditActor, type AuditLog } from './audit-log';
import type { UserChangePublisher } from './events';
import { generatePassword, passwordProblem, type PasswordHasher } from './passwords';
import {
  UserExistsError,
  type AuthRepository,
  type PendingUserChange,
  type UserChangeKindName,
  type UserDoc,
  type UserListQuery,
  type UserSortField,
} from './repository';
import { toUserView, type UserView } from './user-view';

// The answers' texts, fixed by the issue and the spec (§7): the HTTP contract's.
export const messages = authMessages;

/** The one user the super administrator of single-machine mode's first start gets. */
export const generatedAdmin = { username: 'admin', email: 'admin@kickstand.local' } as const;

export { usernameLength, usernamePattern } from '@kickstand/api-contract';

/** What a new user's bot switch is before bot-runner says otherwise (bot.status carries the real value). */
export const defaultBotEnabled = true;

export interface Session {
  user: UserView;
  token: string;
}

// The contract's Session is this one as JSON: a drift between the two fails to compile here.
const _sessionIsTheContracts: SameType<Serialized<Session>, ContractSession> = true;

export interface RegisterInput {
  email: string;
  username: string;
  password: string;
}

export interface LoginInput {
  email: string;
  password: string;
}

export interface UserListParams {
  search?: string;
  page: number;
  limit: number;
  role: 'ALL' | Role;
  status: 'ALL' | 'ACTIVE' | 'INACTIVE';
  sort: UserSortField;
  order: 'asc' | 'desc';
  hasKick?: boolean;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export interface AdminInput {
  email: string;
  username: string;
  /** A random strong one is made when not given. */
  password?: string;
}

export type AdminOutcome =
  | { outcome: 'created'; user: UserView; password: string; isPasswordGenerated: boolean }
  | { outcome: 'promoted' | 'unchanged'; user: UserView };

// ----- pure rules -----------------------------------------------------------------------------

export function newUserDoc(options: {
  id: string;
  email: string;
  username: string;
  passwordHash: string;
  role: Role;
  now: Date;
  change: PendingUserChange;
}): UserDoc {
  return {
    _id: options.id,
    username: options.username,
    usernameLower: options.username.toLowerCase(),
    email: options.email,
    emailLower: options.email.toLowerCase(),
    passwordHash: options.passwordHash,
    role: options.role,
    isActive: true,
    lastLogin: null,
    createdAt: options.now,
    updatedAt: options.now,
    botEnabled: defaultBotEnabled,
    botEnabledAt: null,
    kickAccount: null,
    kickAccountAt: null,
    commandCount: 0,
    outbox: [options.change],
  };
}

export function pendingChange(
  kind: UserChangeKindName,
  user: { username: string; role: Role; isActive: boolean },
  now: Date,
  eventId: string,
): PendingUserChange {
  return { eventId, kind, occurredAt: now, username: user.username, role: user.role, isActive: user.isActive };
}

/** Whether an administrator may set a user's isActive; throws the refusal. Pure. */
export function checkStatusChange(target: Pick<UserDoc, 'role'>, isActive: boolean): void {
  if (target.role === 'SUPER_ADMIN' && !isActive) throw forbidden(messages.superAdminProtected);
}

export function paginationOf(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, pages: Math.ceil(total / limit) };
}

export function toUserListQuery(params: UserListParams): UserListQuery {
  const query: UserListQuery = {
    sort: params.sort,
    order: params.order,
    skip: (params.page - 1) * params.limit,
    limit: params.limit,
  };
  if (params.search) query.search = params.search;
  if (params.role !== 'ALL') query.role = params.role;
  if (params.status !== 'ALL') query.isActive = params.status === 'ACTIVE';
  if (params.hasKick !== undefined) query.hasKick = params.hasKick;
  return query;
}

const invalidCredentials = () => unauthorized(messages.invalidCredentials);
/** True for the answer to an unknown email or a wrong password: what the sign-in throttle counts. */
export const isWrongCredentials = (error: unknown): boolean =>
  error instanceof AppError && error.status === 401 && error.message === messages.invalidCredentials;
const deactivated = () => forbidden(messages.deactivated);
const userExists = (error: UserExistsError) =>
  conflict(error.field === 'email' ? messages.emailTaken : messages.usernameTaken);

// ----- use cases ------------------------------------------------------------------------------

export interface UsersDeps {
  repo: AuthRepository;
  passwords: PasswordHasher;
  /** Absent where no tokens are issued (the admin:create command). */
  signer?: TokenSigner;
  clock: Clock;
  log: Logger;
  audit: AuditLog;
  /** Publishes what a write left in the user's outbox. */
  changes: Pick<UserChangePublisher, 'flush'>;
}

export type Users = ReturnType<typeof createUsers>;

export function createUsers({ repo, passwords, signer, clock, log, audit, changes }: UsersDeps) {
  function sessionOf(user: UserDoc): Session {
    if (!signer) throw new Error('this process issues no tokens');
    const token = signer.sign({ userId: user._id, username: user.username, role: user.role }, user.tokenVersion ?? 0);
    return { user: toUserView(user), token };
  }

  async function insertNewUser(input: RegisterInput, role: Role): Promise<UserDoc> {
    const now = clock.now();
    const id = randomUUID();
    const passwordHash = await passwords.hash(input.password);
    const user = newUserDoc({
      id,
      email: input.email,
      username: input.username,
      passwordHash,
      role,
      now,
      change: pendingChange('CREATED', { username: input.username, role, isActive: true }, now, randomUUID()),
    });
    const inserted = await repo.users.insert(user);
    await changes.flush(id);
    return inserted;
  }

  async function createOrPromoteAdminOnce(input: AdminInput, actor: AuditActor): Promise<AdminOutcome> {
    const existing = await repo.users.findByEmail(input.email);
    if (existing) {
      if (existing.role === 'SUPER_ADMIN' && existing.isActive) {
        return { outcome: 'unchanged', user: toUserView(existing) };
      }
      const now = clock.now();
      const change = pendingChange(
        'ACTIVATED',
        { username: existing.username, role: 'SUPER_ADMIN', isActive: true },
        now,
        randomUUID(),
      );
      const promoted = await repo.users.promote(existing._id, change);
      if (!promoted) throw new Error(`user ${existing._id} disappeared while being promoted`);
      await audit.record({
        id: change.eventId,
        occurredAt: now,
        actor,
        action: 'admin.promoted',
        target: { type: 'user', id: promoted._id, username: promoted.username },
      });
      await changes.flush(promoted._id);
      return { outcome: 'promoted', user: toUserView(promoted) };
    }
    if (await repo.users.findByUsername(input.username)) throw conflict(messages.usernameTaken);
    const isPasswordGenerated = input.password === undefined;
    const password = input.password ?? generatePassword();
    const problem = passwordProblem(password);
    if (problem) throw badRequest(problem);
    const created = await insertNewUser({ email: input.email, username: input.username, password }, 'SUPER_ADMIN');
    await audit.record({
      occurredAt: created.createdAt,
      actor,
      action: 'admin.created',
      target: { type: 'user', id: created._id, username: created.username },
    });
    return { outcome: 'created', user: toUserView(created), password, isPasswordGenerated };
  }

  return {
    async register(input: RegisterInput): Promise<Session> {
      // answered before the (slow) hash; the unique indexes still decide a race
      if (await repo.users.findByEmail(input.email)) throw conflict(messages.emailTaken);
      if (await repo.users.findByUsername(input.username)) throw conflict(messages.usernameTaken);
      try {
        const user = await insertNewUser(input, 'USER');
        log.info({ userId: user._id, username: user.username }, 'user registered');
        return sessionOf(user);
      } catch (error) {
        if (error instanceof UserExistsError) throw userExists(error);
        throw error;
      }
    },

    async login(input: LoginInput): Promise<Session> {
      const user = await repo.users.findByEmail(input.email);
      if (!user) {
        // about as slow as a wrong password, so the answer does not tell which emails exist
        await passwords.verifyNothing(input.password);
        throw invalidCredentials();
      }
      if (!(await passwords.verify(user.passwordHash, input.password))) throw invalidCredentials();
      // only someone who knows the password learns that the account is deactivated
      if (!user.isActive) throw deactivated();
      const signedIn = await repo.users.recordLogin(user._id, clock.now());
      if (!signedIn) throw invalidCredentials();
      return sessionOf(signedIn);
    },

    async profile(identity: Identity): Promise<UserView> {
      const user = await repo.users.findById(identity.userId);
      if (!user) throw unauthorized(messages.userNotFound);
      if (!user.isActive) throw deactivated();
      return toUserView(user);
    },

    async list(params: UserListParams): Promise<{ users: UserView[]; pagination: Pagination }> {
      const { users, total } = await repo.users.list(toUserListQuery(params));
      return { users: users.map(toUserView), pagination: paginationOf(params.page, params.limit, total) };
    },

    /** Logout: every token the user holds now is refused by every service once user.changed is read. */
    async signOut(identity: Identity): Promise<void> {
      const target = await repo.users.findById(identity.userId);
      if (!target) throw notFound(messages.userNotFound);
      const change = pendingChange('SIGNED_OUT', target, clock.now(), randomUUID());
      if (!(await repo.users.signOut(identity.userId, change))) throw notFound(messages.userNotFound);
      await changes.flush(identity.userId);
      log.info({ userId: identity.userId }, 'user signed out');
    },

    async setStatus(actor: Identity, userId: string, isActive: boolean): Promise<{ user: UserView; message: string }> {
      const target = await repo.users.findById(userId);
      if (!target) throw notFound(messages.userNotFound);
      checkStatusChange(target, isActive);
      const message = isActive ? messages.userActivated : messages.userDeactivated;
      // setting what is already set changes nothing: no event, no audit entry
      if (target.isActive === isActive) return { user: toUserView(target), message };
      const now = clock.now();
      const change = pendingChange(isActive ? 'ACTIVATED' : 'DEACTIVATED', { ...target, isActive }, now, randomUUID());
      const updated = await repo.users.setActive(userId, isActive, change);
      if (!updated) throw notFound(messages.userNotFound);
      await audit.record({
        id: change.eventId,
        occurredAt: now,
        actor: { id: actor.userId, username: actor.username },
        action: isActive ? 'user.activated' : 'user.deactivated',
        target: { type: 'user', id: updated._id, username: updated.username },
      });
      await changes.flush(userId);
      log.info({ userId, isActive, by: actor.userId }, 'user status changed');
      return { user: toUserView(updated), message };
    },

    /**
     * Creates a super administrator, or makes the user with that email one (and active). An
     * existing password is never changed.
     */
    async createOrPromoteAdmin(input: AdminInput, actor: AuditActor = systemActor): Promise<AdminOutcome> {
      try {
        return await createOrPromoteAdminOnce(input, actor);
      } catch (error) {
        if (!(error instanceof UserExistsError)) throw error;
        // another instance created this email at the same moment: promote what it made
        if (error.field === 'email') return createOrPromoteAdminOnce(input, actor);
        throw conflict(messages.usernameTaken);
      }
    },

    /**
     * An administrator sets a user's role (USER ↔ SUPER_ADMIN). The last super administrator keeps
     * the role. The change signs the user out everywhere (tokens name the role) and is audited;
     * setting the role the user has changes nothing.
     */
    async setRole(actor: Identity, userId: string, role: Role): Promise<{ user: UserView; message: string }> {
      const target = await repo.users.findById(userId);
      if (!target) throw notFound(messages.userNotFound);
      if (target.role === role) return { user: toUserView(target), message: messages.roleChanged };
      if (target.role === 'SUPER_ADMIN' && (await repo.users.countSuperAdmins()) <= 1) {
        throw conflict(messages.lastSuperAdmin);
      }
      const now = clock.now();
      const change = pendingChange('ROLE_CHANGED', { ...target, role }, now, randomUUID());
      const updated = await repo.users.setRole(userId, target.role, role, change);
      if (!updated) throw conflict(messages.roleChangedMeanwhile);
      await audit.record({
        id: change.eventId,
        occurredAt: now,
        actor: { id: actor.userId, username: actor.username },
        action: 'user.role-changed',
        target: { type: 'user', id: updated._id, username: updated.username },
        details: { from: target.role, to: role },
      });
      await changes.flush(userId);
      log.info({ userId, role, by: actor.userId }, 'user role changed');
      return { user: toUserView(updated), message: messages.roleChanged };
    },

    countSuperAdmins: () => repo.users.countSuperAdmins(),
    usernameExists: async (username: string) => (await repo.users.findByUsername(username)) !== null,
  };
}
