import type { Logger } from '@kickstand/platform/log';
import type { OwnLines } from './chat-sender';
import type { KickLinkPublisher } from './events';
import type { ChannelOwners } from './links';
import type { DeadLetterDoc, KickLinkRepository } from './repository';
import { parseDelivery, toChatReceived, toKickEvent, type DeliveryContext } from './webhook-payloads';
import type { DeliveryHeaders } from './webhook-verification';

/** A delivery whose signature and timestamp were checked (on arrival; a replay does not check again). */
export interface VerifiedDelivery {
  headers: DeliveryHeaders;
  rawBody: Buffer;
  /** Kick's timestamp header. */
  sentAt: Date;
  receivedAt: Date;
}

export type DeliveryOutcome =
  /** chat.received or kick.event was published. */
  | { kind: 'published'; broadcasterUserId: string }
  /** Its message id was used before: dropped. */
  | { kind: 'duplicate'; broadcasterUserId: string }
  /** A channel nobody linked: dropped. */
  | { kind: 'unlinked'; broadcasterUserId: string }
  /** Cannot be used (webhook-payloads.ts parseDelivery): the caller keeps it as a dead letter. */
  | { kind: 'unusable'; reason: string; broadcasterUserId: string | null };

export interface DeliveryProcessor {
  /**
   * Publishes what the delivery says, once per message id. Throws only when publishing (or the
   * store) fails; the message id is then free again, so a retry is not taken for a duplicate.
   */
  process(delivery: VerifiedDelivery): Promise<DeliveryOutcome>;
}

/**
 * The part of the webhook door after the checks, shared by fresh deliveries and by the replay of
 * a dead letter: parse leniently, route by the broadcaster, claim the message id, publish.
 *
 * The message id is claimed (unique index, TTL ten minutes) before publishing, and released again
 * if the publish fails. A crash between claim and publish loses that delivery; nothing can
 * publish one twice.
 */
export function createDeliveryProcessor(deps: {
  owners: ChannelOwners;
  ownLines: OwnLines;
  repo: KickLinkRepository;
  publisher: KickLinkPublisher;
  log: Logger;
}): DeliveryProcessor {
  const { owners, ownLines, repo, publisher, log } = deps;
  return {
    async process(delivery) {
      const { headers, rawBody, sentAt, receivedAt } = delivery;
      const parsed = parseDelivery(headers.eventType, headers.eventVersion, rawBody);
      if (parsed.kind === 'unusable') return parsed;
      const { broadcasterUserId } = parsed;

      const ownerUserId = await owners.ownerOf(broadcasterUserId);
      if (!ownerUserId) return { kind: 'unlinked', broadcasterUserId };
      if (!(await repo.webhookMessages.claim(headers.messageId, receivedAt))) {
        return { kind: 'duplicate', broadcasterUserId };
      }

      const context: DeliveryContext = {
        kickMessageId: headers.messageId,
        subscriptionId: headers.subscriptionId,
        eventType: headers.eventType,
        eventVersion: headers.eventVersion,
        messageTimestamp: sentAt,
        receivedAt,
        ownerUserId,
      };
      try {
        if (parsed.kind === 'chat') {
          const isFromBot = await ownLines.isOwn({
            broadcasterUserId,
            messageId: parsed.payload.message_id,
            content: parsed.payload.content,
            senderUserId: parsed.payload.sender.user_id ?? '',
            senderUsername: parsed.payload.sender.username,
          });
          await publisher.chatReceived(toChatReceived(parsed.payload, context, isFromBot));
        } else {
          await publisher.kickEvent(toKickEvent(broadcasterUserId, rawBody, context));
        }
      } catch (error) {
        // not published: free the id so that a retry of this delivery is not taken for a duplicate
        await repo.webhookMessages
          .release(headers.messageId)
          .catch((err: unknown) =>
            log.error({ err, messageId: headers.messageId }, 'could not release a webhook claim'),
          );
        throw error;
      }
      return { kind: 'published', broadcasterUserId };
    },
  };
}

/** The dead letter of an unusable delivery. */
export function deadLetterOf(
  delivery: VerifiedDelivery,
  reason: string,
  broadcasterUserId: string | null,
): DeadLetterDoc {
  return {
    _id: delivery.headers.messageId,
    headers: { ...delivery.headers },
    rawBody: delivery.rawBody.toString('utf8'),
    reason,
    broadcasterUserId,
    sentAt: delivery.sentAt,
    receivedAt: delivery.receivedAt,
  };
}

/** A dead letter as a delivery again, for its replay. */
export function deliveryOf(letter: DeadLetterDoc): VerifiedDelivery {
  return {
    headers: { ...letter.headers },
    rawBody: Buffer.from(letter.rawBody, 'utf8'),
    sentAt: letter.sentAt,
    receivedAt: letter.receivedAt,
  };
}
