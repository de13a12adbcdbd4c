import type { SameType, Serialized, UserView as ContractUserView } from '@kickstand/api-contract';
import type { Role } from '@kickstand/platform/auth';
import type { UserDoc } from './repository';

/** The spec's KickAccount (§3); createdAt is the link date. */
export interface KickAccountView {
  kickUsername: string;
  kickEmail: string | null;
  profilePicture: string | null;
  createdAt: Date;
}

/**
 * The spec's User (§3): what register, login, profile and the admin list answer. Built field by
 * field from the stored document, so nothing else (the password hash, the outbox) can slip out.
 */
export interface UserView {
  id: string;
  username: string;
  email: string;
  role: Role;
  isActive: boolean;
  lastLogin: Date | null;
  createdAt: Date;
  botEnabled: boolean;
  kickAccount: KickAccountView | null;
  _count: { commands: number };
}

// The contract's User is this view as JSON: a drift between the two fails to compile here.
const _userViewIsTheContracts: SameType<Serialized<UserView>, ContractUserView> = true;

export function toUserView(user: UserDoc): UserView {
  const kick = user.kickAccount;
  return {
    id: user._id,
    username: user.username,
    email: user.email,
    role: user.role,
    isActive: user.isActive,
    lastLogin: user.lastLogin ?? null,
    createdAt: user.createdAt,
    botEnabled: user.botEnabled,
    kickAccount: kick
      ? {
          kickUsername: kick.kickUsername,
          kickEmail: kick.kickEmail || null,
          profilePicture: kick.profilePicture || null,
          createdAt: kick.linkedAt,
        }
      : null,
    _count: { commands: user.commandCount },
  };
}
