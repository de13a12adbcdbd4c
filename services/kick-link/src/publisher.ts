import { randomUUID } from 'node:crypto';
import type { KickstandBus } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import { KickAccountChangeKind, type ChatOrigin, type ChatSubscriptionState } from '@kickstand/proto';
import { timestampFromDate, type Timestamp } from '@kickstand/proto';
import type { LinkDoc } from './repository';
import type { ChatReceivedInit, KickEventInit } from './webhook-payloads';

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
  /** Set when it comes from an outbox: the same message published again keeps its id. */
  sent?: OutboxSent;
}

/** The id and time of a message kept in an outbox (a random id and now otherwise). */
export interface OutboxSent {
  eventId: string;
  occurredAt: Date;
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
  sourceReceivedAt?: Timestamp;
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
  kickAccount(kind: KickAccountChangeKind, link: LinkDoc, sent?: OutboxSent): Promise<void>;
  chatSubscription(change: ChatSubscriptionChange): Promise<void>;
  chatReceived(message: ChatReceivedInit): Promise<void>;
  kickEvent(message: KickEventInit): Promise<void>;
  chatSent(outcome: ChatSentInit): Promise<void>;
  audit(record: AuditRecord): Promise<void>;
}

export function createKickLinkPublisher(bus: KickstandBus, clock: Clock): KickLinkPublisher {
  const now = () => timestampFromDate(clock.now());
  return {
    kickAccount: (kind, link, sent) =>
      bus.publish('kick.account', link._id, {
        eventId: sent?.eventId ?? randomUUID(),
        occurredAt: sent ? timestampFromDate(sent.occurredAt) : now(),
        userId: link._id,
        kind,
        kickUserId: link.kickUserId,
        kickUsername: link.kickUsername,
        kickEmail: link.kickEmail,
        profilePicture: link.profilePicture,
        linkedAt: timestampFromDate(link.linkedAt),
        // bot-runner switches a moderation filter on only with the moderation scopes
        scopes: kind === KickAccountChangeKind.LINKED ? [...link.scopes] : [],
      }),
    chatSubscription: (change) =>
      bus.publish('chat.subscription', change.userId, {
        eventId: change.sent?.eventId ?? randomUUID(),
        occurredAt: change.sent ? timestampFromDate(change.sent.occurredAt) : now(),
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
        sentAt: timestampFromDate(outcome.sentAt),
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
