import type { KickstandBus, Subscription, TopicMessage } from '@kickstand/platform/bus';
import type { Logger } from '@kickstand/platform/log';
import { createOutboxRelay } from '@kickstand/platform/outbox';
import { ChangeKind, KickAccountChangeKind, UserChangeKind, UserRole, timestampFromDate } from '@kickstand/proto';
import type { Analytics } from './analytics';
import type { AuditLog } from './audit-log';
import type { AuthRepository, KickAccountChange, PendingUserChange, UserDoc } from './repository';
import { dateOf } from './timestamps';

/** Instances of auth share one consumer group, so each event updates the read model once. */
export const consumerGroup = 'auth';

// ---------------------------------------------------------------------------------------------
// Publishing: user.changed, through the outbox on each user document
// ---------------------------------------------------------------------------------------------

export interface UserChangePublisher {
  /** Publishes the user's pending changes in order, removing each once the bus took it. Never throws. */
  flush(userId: string): Promise<void>;
  /**
   * Every user's pending changes now (left by a crash, a bus outage or admin:create), then every
   * `retryMs`; stop() ends the retries.
   */
  start(): Promise<void>;
  stop(): void;
}

const kindOf: Record<PendingUserChange['kind'], UserChangeKind> = {
  CREATED: UserChangeKind.CREATED,
  ACTIVATED: UserChangeKind.ACTIVATED,
  DEACTIVATED: UserChangeKind.DEACTIVATED,
  SIGNED_OUT: UserChangeKind.SIGNED_OUT,
  ROLE_CHANGED: UserChangeKind.ROLE_CHANGED,
};

/** user.changed through the platform's outbox relay over the users' `outbox` arrays. */
export function createUserChangePublisher({
  repo,
  bus,
  log,
  retryMs,
}: {
  repo: AuthRepository;
  bus: KickstandBus;
  log: Logger;
  retryMs?: number;
}): UserChangePublisher {
  const relay = createOutboxRelay<UserDoc, PendingUserChange>({
    collection: repo.outboxCollection,
    idField: 'eventId',
    name: 'user.changed',
    log,
    ...(retryMs !== undefined ? { retryMs } : {}),
    publish: (user, change) =>
      bus.publish('user.changed', user._id, {
        eventId: change.eventId,
        occurredAt: timestampFromDate(change.occurredAt),
        userId: user._id,
        kind: kindOf[change.kind],
        username: change.username,
        role: change.role === 'SUPER_ADMIN' ? UserRole.SUPER_ADMIN : UserRole.USER,
        isActive: change.isActive,
        // the version now, not when the change was queued: versions only go up, so it is the truth
        tokenVersion: user.tokenVersion ?? 0,
      }),
  });
  return { flush: relay.flush, start: relay.start, stop: relay.stop };
}

// ---------------------------------------------------------------------------------------------
// Consuming: the read model (kick.account, bot.status, command.changed), the audit log and
// command usage (command.executed)
// ---------------------------------------------------------------------------------------------

export interface ReadModelHandlers {
  onKickAccount(message: TopicMessage<'kick.account'>): Promise<void>;
  onBotStatus(message: TopicMessage<'bot.status'>): Promise<void>;
  onCommandChanged(message: TopicMessage<'command.changed'>): Promise<void>;
  onAuditRecorded(message: TopicMessage<'audit.recorded'>): Promise<void>;
  onCommandExecuted(message: TopicMessage<'command.executed'>): Promise<void>;
}

/**
 * The bus handlers. Each is idempotent (delivery is at least once) and keeps the newest state when
 * events arrive late; a message for an unknown user or with missing fields is logged and dropped,
 * never retried. A store failure throws, so the bus retries and finally dead-letters it.
 */
export function readModelHandlers({
  repo,
  audit,
  analytics,
  log,
}: {
  repo: AuthRepository;
  audit: AuditLog;
  analytics: Analytics;
  log: Logger;
}): ReadModelHandlers {
  const ignore = (topic: string, reason: string, fields: Record<string, unknown>) =>
    log.debug({ topic, ...fields }, `${topic} ignored: ${reason}`);

  return {
    async onKickAccount(message) {
      const { userId, eventId } = message;
      if (!userId) return ignore('kick.account', 'no user id', { eventId });
      const at = dateOf(message.occurredAt);
      let change: KickAccountChange;
      switch (message.kind) {
        case KickAccountChangeKind.LINKED:
          if (!message.kickUsername)
            return ignore('kick.account', 'linked without a Kick username', { eventId, userId });
          change = {
            kind: 'linked',
            account: {
              kickUserId: message.kickUserId,
              kickUsername: message.kickUsername,
              kickEmail: message.kickEmail,
              profilePicture: message.profilePicture,
              linkedAt: message.linkedAt ? dateOf(message.linkedAt) : at,
            },
          };
          break;
        case KickAccountChangeKind.UNLINKED:
          change = { kind: 'unlinked' };
          break;
        case KickAccountChangeKind.NEEDS_RELINK:
          change = { kind: 'needs-relink' };
          break;
        default:
          return ignore('kick.account', 'unknown kind', { eventId, userId, kind: message.kind });
      }
      if (!(await repo.users.applyKickAccount(userId, change, at))) {
        ignore('kick.account', 'unknown user, no linked account, or a newer change applied already', {
          eventId,
          userId,
        });
      }
    },

    async onBotStatus(message) {
      const { userId, eventId } = message;
      if (!userId) return ignore('bot.status', 'no user id', { eventId });
      if (!(await repo.users.applyBotEnabled(userId, message.botEnabled, dateOf(message.occurredAt)))) {
        ignore('bot.status', 'unknown user or a newer status applied already', { eventId, userId });
      }
    },

    async onCommandChanged(message) {
      const { userId, eventId, command } = message;
      if (!userId || !command) return ignore('command.changed', 'no user id or command', { eventId, userId });
      if (![ChangeKind.ADDED, ChangeKind.REMOVED, ChangeKind.UPDATED].includes(message.kind)) {
        return ignore('command.changed', 'unknown kind', { eventId, userId, kind: message.kind });
      }
      if (!(await repo.users.findById(userId))) return ignore('command.changed', 'unknown user', { eventId, userId });
      const at = dateOf(message.occurredAt);
      // a rename (UPDATED with another previous name) is the old name gone and the new one there
      const previous = message.previousCommand;
      if (message.kind === ChangeKind.UPDATED && previous !== '' && previous.toLowerCase() !== command.toLowerCase()) {
        await repo.userCommands.record(userId, previous, false, at);
      }
      await repo.userCommands.record(userId, command, message.kind !== ChangeKind.REMOVED, at);
      // recounted from the set each time, so a replay cannot count a command twice
      await repo.users.setCommandCount(userId, await repo.userCommands.count(userId));
    },

    async onAuditRecorded(message) {
      await audit.recordReported(message);
    },

    async onCommandExecuted(message) {
      await analytics.recordExecution(message);
    },
  };
}

/** Subscribes auth's handlers in its consumer group; stop() leaves the group. */
export async function subscribeReadModel(
  bus: KickstandBus,
  handlers: ReadModelHandlers,
): Promise<{ stop(): Promise<void> }> {
  const subscriptions: Subscription[] = [
    await bus.subscribe('kick.account', consumerGroup, handlers.onKickAccount),
    await bus.subscribe('bot.status', consumerGroup, handlers.onBotStatus),
    await bus.subscribe('command.changed', consumerGroup, handlers.onCommandChanged),
    await bus.subscribe('audit.recorded', consumerGroup, handlers.onAuditRecorded),
    await bus.subscribe('command.executed', consumerGroup, handlers.onCommandExecuted),
  ];
  return {
    stop: async () => {
      for (const subscription of subscriptions) await subscription.stop();
    },
  };
}
