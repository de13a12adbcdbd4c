import express, { Router } from 'express';
import type { Clock } from '@kickstand/platform/clock';
import { badRequest, unauthorized } from '@kickstand/platform/errors';
import { createErrorHandler } from '@kickstand/platform/http';
import type { Logger } from '@kickstand/platform/log';
import type { OwnLines } from './chat-sender';
import type { KickLinkPublisher } from './events';
import type { ChannelOwners } from './links';
import type { KickLinkRepository } from './repository';
import { parseDelivery, toChatReceived, toKickEvent, type DeliveryContext } from './webhook-payloads';
import type { WebhookVerifier } from './webhook-verification';

export const webhookPath = '/api/kick/webhook';

export interface WebhookDeps {
  verifier: WebhookVerifier;
  owners: ChannelOwners;
  ownLines: OwnLines;
  repo: KickLinkRepository;
  publisher: KickLinkPublisher;
  clock: Clock;
  log: Logger;
  bodyLimit: string;
}

/**
 * Kick's webhook door (kick-api.md §8.6). It is mounted ahead of the platform app, with its own
 * raw-body parser, so that the signature is checked against the exact bytes before anything parses
 * them, and so that this hot path writes no request log line per delivery.
 *
 * In order: headers and timestamp (±5 min) and signature → 401; not JSON or not the shape of the
 * type in the header → 400; an unknown type → 200, ignored; a channel nobody linked → 200, dropped;
 * a message id seen before → 200, dropped; otherwise the event is published, then 200.
 *
 * The message id is claimed (unique index, TTL one hour) before publishing, and released again if
 * the publish fails (answer 500, so Kick may retry). A crash between claim and publish loses that
 * delivery; nothing can publish one twice.
 */
export function kickWebhookRoutes(deps: WebhookDeps): Router {
  const { verifier, owners, ownLines, repo, publisher, clock, log } = deps;
  const router = Router();

  router.post(webhookPath, express.raw({ type: () => true, limit: deps.bodyLimit }), async (req, res) => {
    const receivedAt = clock.now();
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const verdict = await verifier.verify(req.headers, rawBody);
    if (!verdict.isValid) {
      log.debug({ reason: verdict.reason }, 'webhook delivery refused');
      throw unauthorized('Invalid webhook signature');
    }
    const { headers } = verdict;
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw badRequest('The body is not JSON');
    }
    const parsed = parseDelivery(headers.eventType, body);
    if (parsed.kind === 'unknown-type') {
      log.debug({ eventType: headers.eventType }, 'webhook delivery of an unknown event type ignored');
      res.status(200).json({ success: true });
      return;
    }
    if (parsed.kind === 'invalid') throw badRequest(`The body does not match ${headers.eventType}: ${parsed.problem}`);

    const ownerUserId = await owners.ownerOf(parsed.broadcasterUserId);
    if (!ownerUserId) {
      log.debug({ broadcasterUserId: parsed.broadcasterUserId }, 'webhook delivery for a channel nobody linked');
      res.status(200).json({ success: true });
      return;
    }
    if (!(await repo.webhookMessages.claim(headers.messageId, receivedAt))) {
      log.debug({ messageId: headers.messageId }, 'webhook delivery seen before: dropped');
      res.status(200).json({ success: true });
      return;
    }

    const context: DeliveryContext = {
      kickMessageId: headers.messageId,
      subscriptionId: headers.subscriptionId,
      eventType: headers.eventType,
      eventVersion: headers.eventVersion,
      messageTimestamp: verdict.sentAt,
      receivedAt,
      ownerUserId,
    };
    try {
      if (parsed.kind === 'chat') {
        const isFromBot = await ownLines.isOwn({
          broadcasterUserId: parsed.broadcasterUserId,
          messageId: parsed.payload.message_id,
          content: parsed.payload.content,
          senderUserId: String(parsed.payload.sender.user_id),
          senderUsername: parsed.payload.sender.username,
        });
        await publisher.chatReceived(toChatReceived(parsed.payload, context, isFromBot));
      } else {
        await publisher.kickEvent(toKickEvent(parsed.broadcasterUserId, rawBody, context));
      }
    } catch (error) {
      // not published: free the id so that a retry of this delivery is not taken for a duplicate
      await repo.webhookMessages
        .release(headers.messageId)
        .catch((err: unknown) => log.error({ err, messageId: headers.messageId }, 'could not release a webhook claim'));
      throw error;
    }
    res.status(200).json({ success: true });
  });

  router.use(createErrorHandler(log));
  return router;
}
