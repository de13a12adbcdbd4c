import { randomUUID } from 'node:crypto';
import { moderationScopes } from '@kickstand/api-contract';
import type { KickstandBus, TopicMessage } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { DuplicateKeyError, type Document, type Store } from '@kickstand/platform/store';
import { ModerationActionKind, timestampFromDate } from '@kickstand/proto';
import { kickProblem, type KickClient } from './kick-client';
import { NeedsRelinkError, NotLinkedError, needsRelinkMessage, notLinkedMessage, type UserTokens } from './kick-tokens';

/**
 * moderation.action (bot-runner's filters and the moderation log's undo) → the Kick call with the
 * streamer's token → moderation.result. Each idempotency key is claimed before Kick is called, so
 * a redelivered action is carried out once; its outcome is answered again (the same result).
 */

interface ModerationClaimDoc extends Document {
  claimedAt: Date;
  /** Set once Kick answered; a claim without it was interrupted (reported as failed, not retried). */
  outcome?: { ok: boolean; error: string };
}

/** Which scope each kind needs (kick-api.md §5.2, §6). */
const scopeOf: Partial<Record<ModerationActionKind, string>> = {
  [ModerationActionKind.DELETE_MESSAGE]: moderationScopes[0],
  [ModerationActionKind.TIMEOUT]: moderationScopes[1],
  [ModerationActionKind.BAN]: moderationScopes[1],
  [ModerationActionKind.UNBAN]: moderationScopes[1],
};

export const missingScopeMessage = (scope: string) =>
  `Kick did not grant ${scope}: grant moderation access on the Moderation page`;

export interface ModerationActionDeps {
  store: Store;
  kick: KickClient;
  userTokens: UserTokens;
  bus: KickstandBus;
  clock: Clock;
  log: Logger;
}

/** Claims are kept a week: a replay later than that is not expected from the bus. */
export const moderationClaimSeconds = 7 * 24 * 60 * 60;

export async function createModerationClaimIndexes(store: Store): Promise<void> {
  await store
    .collection<ModerationClaimDoc>('moderation-claims')
    .createIndex({ fields: { claimedAt: 1 }, expireAfterSeconds: moderationClaimSeconds });
}

export function onModerationAction(
  deps: ModerationActionDeps,
): (message: TopicMessage<'moderation.action'>) => Promise<void> {
  const { kick, userTokens, bus, clock, log } = deps;
  const claims = deps.store.collection<ModerationClaimDoc>('moderation-claims');

  const answer = (message: TopicMessage<'moderation.action'>, outcome: { ok: boolean; error: string }) =>
    bus.publish('moderation.result', message.broadcasterUserId, {
      eventId: randomUUID(),
      occurredAt: timestampFromDate(clock.now()),
      broadcasterUserId: message.broadcasterUserId,
      ownerUserId: message.ownerUserId,
      logEntryId: message.logEntryId,
      kind: message.kind,
      ok: outcome.ok,
      error: outcome.error,
    });

  async function call(message: TopicMessage<'moderation.action'>): Promise<{ ok: boolean; error: string }> {
    const scope = scopeOf[message.kind];
    if (scope === undefined) return { ok: false, error: 'unknown moderation action' };
    try {
      await userTokens.withUserToken(message.ownerUserId, async (token, link) => {
        // Kick always reports the granted scopes; none reported is taken as "as asked" (links.ts)
        if (link.scopes.length > 0 && !link.scopes.includes(scope)) throw new MissingScope(scope);
        switch (message.kind) {
          case ModerationActionKind.DELETE_MESSAGE:
            return kick.deleteChatMessage(token, message.messageId);
          case ModerationActionKind.TIMEOUT:
          case ModerationActionKind.BAN:
            return kick.ban(token, {
              broadcasterUserId: message.broadcasterUserId,
              userId: message.targetUserId,
              ...(message.kind === ModerationActionKind.TIMEOUT ? { durationMinutes: message.durationMinutes } : {}),
              reason: message.reason.slice(0, 100),
            });
          default:
            return kick.unban(token, message.broadcasterUserId, message.targetUserId);
        }
      });
      return { ok: true, error: '' };
    } catch (error) {
      if (error instanceof MissingScope) return { ok: false, error: missingScopeMessage(error.scope) };
      if (error instanceof NotLinkedError) return { ok: false, error: notLinkedMessage };
      if (error instanceof NeedsRelinkError) return { ok: false, error: needsRelinkMessage };
      log.warn({ err: error, key: message.idempotencyKey }, 'Kick refused a moderation action');
      return { ok: false, error: kickProblem(error) };
    }
  }

  return async (message) => {
    if (message.idempotencyKey === '' || message.ownerUserId === '') return;
    try {
      await claims.insertOne({ _id: message.idempotencyKey, claimedAt: clock.now() });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      const claim = await claims.findOne({ _id: message.idempotencyKey });
      // acted on before: the same answer again (the first may not have reached the bus)
      await answer(message, claim?.outcome ?? { ok: false, error: 'interrupted; not tried again' });
      return;
    }
    const outcome = await call(message);
    await claims.updateOne({ _id: message.idempotencyKey }, { $set: { outcome } });
    await answer(message, outcome);
  };
}

class MissingScope extends Error {
  constructor(readonly scope: string) {
    super(`missing scope ${scope}`);
    this.name = 'MissingScope';
  }
}
