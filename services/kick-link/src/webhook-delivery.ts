import type { Logger } from '@kickstand/platform/log';
import type { OwnLines } from './chat-sender';
import type { KickLinkPublisher } from './publisher';
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
   * Publishes what the delivery says, once per message id. Throws only when publishing fails (the
   * bus and its spool cannot take it) or the link lookup does; the message id is then free again,
   * so a retry is not taken for a duplicate.
   */
  process(delivery: VerifiedDelivery): Promise<DeliveryOutcome>;
}

/**
 * The part of the webhook door after the checks, shared by fresh deliveries and by the replay of
 * a dead letter: parse leniently, route by the broadcaster, claim the message id, publish.
 *
 * The message id is claimed in the store (unique index, TTL ten minutes: it survives restarts)
 * before publishing, and released again if the publish fails. A crash between claim and publish
 * leaves the id claimed, but Kick got no answer for it. Publishing is durable on return: in the
 * bus, or in the spool that forwards to it (service.ts, @kickstand/platform/bus spool).
 */
export function createDeliveryProcessor(deps: {
  owners: ChannelOwners;
  ownLines: OwnLines;
  repo: KickLinkRepository;
  publisher: KickLinkPublisher;
  log: Logger;
}): DeliveryProcessor {
  const { owners, ownLines, repo, publisher, log } = deps;

  /**
   * The claim is a first filter: every consumer of chat.received and kick.event also drops an
   * event id it has seen (the Kick message id). So while the store cannot be reached the delivery
   * is published unclaimed, rather than refused: Kick does not send it again (kick-api.md §8.7).
   */
  async function claimOnce(messageId: string, receivedAt: Date): Promise<'claimed' | 'taken-before' | 'unchecked'> {
    try {
      return (await repo.webhookMessages.claim(messageId, receivedAt)) ? 'claimed' : 'taken-before';
    } catch (err) {
      log.warn({ err, messageId }, 'could not claim a webhook message id; publishing it unclaimed');
      return 'unchecked';
    }
  }

  return {
    async process(delivery) {
      const { headers, rawBody, sentAt, receivedAt } = delivery;
      const parsed = parseDelivery(headers.eventType, headers.eventVersion, rawBody);
      if (parsed.kind === 'unusable') return parsed;
      const { broadcasterUserId } = parsed;

      const ownerUserId = await owners.ownerOf(broadcasterUserId);
      if (!ownerUserId) return { kind: 'unlinked', broadcasterUserId };
      const claim = await claimOnce(headers.messageId, receivedAt);
      if (claim === 'taken-before') return { kind: 'duplicate', broadcasterUserId };

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
        if (claim === 'claimed')
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
