import { randomUUID } from 'node:crypto';
import type { KickstandBus, Subscription, TopicMessage } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import {
  BotControlAction,
  ChatSubscriptionState,
  KickAccountChangeKind,
  UserChangeKind,
  type ChatOrigin,
} from '@kickstand/proto';
import type { ChatSender } from './chat-sender';
import { kickProblem } from './kick-client';
import { NeedsRelinkError, needsRelinkMessage, notLinkedMessage, type UserTokens } from './kick-tokens';
import type { Links } from './links';
import type { KickLinkRepository, LinkDoc } from './repository';
import { botEvents, chatEvent, type ChannelSubscriptions } from './subscriptions';
import { timestampOf, type ChatReceivedInit, type KickEventInit, type TimestampInit } from './webhook-payloads';

/** Instances of kick-link share the group: each instruction is carried out by one of them. */
export const kickLinkConsumerGroup = 'kick-link';

// ---------------------------------------------------------------------------------------------
// Out: kick.account, chat.subscription, chat.received, kick.event, chat.sent, audit.recorded
// ---------------------------------------------------------------------------------------------

export interface ChatSubscriptionChange {
  userId: string;
  broadcasterUserId: string;
  state: ChatSubscriptionState;
  error?: string;
  requestId?: string;
  /** An administrator removed it (the admin webhook calls). */
  isRemovedByAdmin?: boolean;
}

export interface ChatSentInit {
  idempotencyKey: string;
  broadcasterUserId: string;
  ownerUserId: string;
  isSent: boolean;
  error: string;
  messageId: string;
  content: string;
  replyToMessageId?: string;
  replyToUsername?: string;
  sentAt: Date;
  origin: ChatOrigin;
  sourceReceivedAt?: TimestampInit;
}

export interface AuditRecord {
  actorUserId: string;
  actorUsername: string;
  action: string;
  targetId: string;
  targetUsername: string;
  details: Record<string, string>;
}

export interface KickLinkPublisher {
  kickAccount(kind: KickAccountChangeKind, link: LinkDoc): Promise<void>;
  chatSubscription(change: ChatSubscriptionChange): Promise<void>;
  chatReceived(message: ChatReceivedInit): Promise<void>;
  kickEvent(message: KickEventInit): Promise<void>;
  chatSent(outcome: ChatSentInit): Promise<void>;
  audit(record: AuditRecord): Promise<void>;
}

export function createKickLinkPublisher(bus: KickstandBus, clock: Clock): KickLinkPublisher {
  const now = () => timestampOf(clock.now());
  return {
    kickAccount: (kind, link) =>
      bus.publish('kick.account', link._id, {
        eventId: randomUUID(),
        occurredAt: now(),
        userId: link._id,
        kind,
        kickUserId: link.kickUserId,
        kickUsername: link.kickUsername,
        kickEmail: link.kickEmail,
        profilePicture: link.profilePicture,
        linkedAt: timestampOf(link.linkedAt),
      }),
    chatSubscription: (change) =>
      bus.publish('chat.subscription', change.userId, {
        eventId: randomUUID(),
        occurredAt: now(),
        userId: change.userId,
        broadcasterUserId: change.broadcasterUserId || '0',
        state: change.state,
        error: change.error ?? '',
        requestId: change.requestId ?? '',
        isRemovedByAdmin: change.isRemovedByAdmin ?? false,
      }),
    chatReceived: (message) => bus.publish('chat.received', message.broadcasterUserId, message),
    kickEvent: (message) => bus.publish('kick.event', message.broadcasterUserId, message),
    chatSent: (outcome) =>
      bus.publish('chat.sent', outcome.broadcasterUserId, {
        // derived from the key: a republish after a crash carries the same id, consumers drop it
        eventId: `chat.sent:${outcome.idempotencyKey}`,
        occurredAt: now(),
        idempotencyKey: outcome.idempotencyKey,
        broadcasterUserId: outcome.broadcasterUserId,
        ownerUserId: outcome.ownerUserId,
        isSent: outcome.isSent,
        error: outcome.error,
        messageId: outcome.messageId,
        content: outcome.content,
        replyToMessageId: outcome.replyToMessageId,
        replyToUsername: outcome.replyToUsername,
        sentAt: timestampOf(outcome.sentAt),
        origin: outcome.origin,
        sourceReceivedAt: outcome.sourceReceivedAt,
      }),
    audit: (record) =>
      bus.publish('audit.recorded', record.targetId, {
        eventId: randomUUID(),
        occurredAt: now(),
        actorUserId: record.actorUserId,
        actorUsername: record.actorUsername,
        action: record.action,
        targetType: 'user',
        targetId: record.targetId,
        targetUsername: record.targetUsername,
        details: record.details,
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// In: bot.control, chat.send (instructions) and user.changed (who exists, for the admin calls)
// ---------------------------------------------------------------------------------------------

export interface BotControlDeps {
  repo: KickLinkRepository;
  subscriptions: ChannelSubscriptions;
  userTokens: UserTokens;
  publisher: KickLinkPublisher;
  log: Logger;
}

/**
 * START: exactly one chat.message.sent subscription for the channel (GET first, create only what
 * is missing). STOP: none. Each is answered with chat.subscription, echoing request_id; a Kick
 * failure is answered FAILED with a reason a streamer understands, never retried silently.
 */
export function onBotControl(deps: BotControlDeps): (message: TopicMessage<'bot.control'>) => Promise<void> {
  const { repo, subscriptions, userTokens, publisher, log } = deps;
  return async (message) => {
    if (message.userId === '') return;
    const link = await repo.links.byUser(message.userId);
    const answer = (state: ChatSubscriptionState, error = '') =>
      publisher.chatSubscription({
        userId: message.userId,
        broadcasterUserId: link?.kickUserId ?? message.broadcasterUserId,
        state,
        error,
        requestId: message.requestId,
      });

    switch (message.action) {
      case BotControlAction.START: {
        if (!link) return answer(ChatSubscriptionState.FAILED, notLinkedMessage);
        if (link.status !== 'active') return answer(ChatSubscriptionState.FAILED, needsRelinkMessage);
        try {
          // the bot will post with the user's token: a refresh token Kick refuses shows up now, not at the first reply
          await userTokens.withUserToken(message.userId, async () => undefined);
        } catch (error) {
          if (error instanceof NeedsRelinkError) return answer(ChatSubscriptionState.FAILED, needsRelinkMessage);
          log.warn({ err: error, userId: message.userId }, 'could not check the Kick token before starting the bot');
        }
        try {
          const outcome = await subscriptions.ensure(link.kickUserId, botEvents);
          // only chat is required: a refused best-effort event shows in delivery health, the bot still starts
          const refused = outcome.refused.find((refusal) => refusal.event === chatEvent);
          if (refused) {
            return answer(ChatSubscriptionState.FAILED, `Kick refused the chat subscription: ${refused.reason}`);
          }
          return answer(ChatSubscriptionState.ACTIVE);
        } catch (error) {
          log.warn({ err: error, userId: message.userId }, 'could not subscribe to the chat at Kick');
          return answer(ChatSubscriptionState.FAILED, `Could not subscribe to the chat: ${kickProblem(error)}`);
        }
      }
      case BotControlAction.STOP: {
        if (!link) return answer(ChatSubscriptionState.INACTIVE);
        try {
          await subscriptions.remove(link.kickUserId, (subscription) =>
            (botEvents as readonly string[]).includes(subscription.event),
          );
          return answer(ChatSubscriptionState.INACTIVE);
        } catch (error) {
          log.warn({ err: error, userId: message.userId }, 'could not remove the chat subscription at Kick');
          return answer(ChatSubscriptionState.FAILED, `Could not remove the chat subscription: ${kickProblem(error)}`);
        }
      }
      default:
        return;
    }
  };
}

export function onChatSend(chat: ChatSender): (message: TopicMessage<'chat.send'>) => Promise<void> {
  return (message) => chat.handle(message);
}

/**
 * Remembers who exists, so an admin call can tell an unknown user (404) from one without a link
 * (400). A deleted user's Kick link is undone (tokens revoked, subscriptions removed). Once
 * deleted, a user stays deleted, whatever arrives late.
 */
export function onUserChanged(deps: {
  repo: KickLinkRepository;
  links: Links;
  clock: Clock;
}): (message: TopicMessage<'user.changed'>) => Promise<void> {
  const { repo, links, clock } = deps;
  return async (message) => {
    if (message.userId === '') return;
    const known = await repo.knownUsers.get(message.userId);
    if (known?.isDeleted) return;
    const isDeleted = message.kind === UserChangeKind.DELETED;
    await repo.knownUsers.save({
      _id: message.userId,
      username: message.username || known?.username || '',
      isDeleted,
      updatedAt: clock.now(),
    });
    if (isDeleted) await links.unlinkIfLinked(message.userId);
  };
}

export async function subscribeKickLinkEvents(
  bus: KickstandBus,
  handlers: {
    botControl: (message: TopicMessage<'bot.control'>) => Promise<void>;
    chatSend: (message: TopicMessage<'chat.send'>) => Promise<void>;
    userChanged: (message: TopicMessage<'user.changed'>) => Promise<void>;
  },
): Promise<Subscription[]> {
  return [
    await bus.subscribe('bot.control', kickLinkConsumerGroup, handlers.botControl),
    await bus.subscribe('chat.send', kickLinkConsumerGroup, handlers.chatSend),
    await bus.subscribe('user.changed', kickLinkConsumerGroup, handlers.userChanged),
  ];
}
