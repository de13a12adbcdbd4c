import type { BotAccount } from '@kickstand/api-contract';
import type { Clock } from '@kickstand/platform/clock';
import type { KickLinkRepository } from './repository';

/** The platform's bot account as the admin area shows it: the HTTP contract's. */
export type BotAccountView = BotAccount;

/** The scopes the bot account is asked for: speaking, and knowing who it is (kick-api.md §5.1). */
export const botAccountScopes = ['user:read', 'chat:write'] as const;

/**
 * The bot account as every send and every incoming line asks for it, cached in memory. Linking and
 * unlinking here update it at once; another kick-link instance's change is seen within 30 seconds.
 */
export interface BotAccountDirectory {
  /** The usable bot account (linked and active), or null. */
  current(): Promise<BotAccountView | null>;
  /** Its Kick user id even when it needs a new link: its old lines are still ours. */
  knownKickUserId(): Promise<string | null>;
  changed(): void;
}

export function createBotAccountDirectory(deps: { repo: KickLinkRepository; clock: Clock }): BotAccountDirectory {
  const { repo, clock } = deps;
  const keepMs = 30 * 1000;
  let cached: { view: BotAccountView | null; expiresAtMs: number } | undefined;
  let loading: Promise<BotAccountView | null> | undefined;

  function load(): Promise<BotAccountView | null> {
    if (cached && cached.expiresAtMs > clock.now().getTime()) return Promise.resolve(cached.view);
    loading ??= repo.botAccount
      .get()
      .then((doc) => {
        const view: BotAccountView | null = doc && {
          kickUserId: doc.kickUserId,
          kickUsername: doc.kickUsername,
          linkedAt: doc.linkedAt.toISOString(),
          needsRelink: doc.status !== 'active',
        };
        cached = { view, expiresAtMs: clock.now().getTime() + keepMs };
        return view;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  }

  return {
    async current() {
      const view = await load();
      return view && !view.needsRelink ? view : null;
    },
    async knownKickUserId() {
      return (await load())?.kickUserId ?? null;
    },
    changed() {
      cached = undefined;
    },
  };
}
