import type { Logger } from '@kickstand/platform/log';
import { createOutboxRelay, type OutboxRelay } from '@kickstand/platform/outbox';
import { ChatSubscriptionState, KickAccountChangeKind } from '@kickstand/proto';
import type { KickLinkPublisher } from './publisher';
import type { KickLinkRepository, LinkDoc, LinkMessage } from './repository';

/**
 * kick.account (LINKED, NEEDS_RELINK) and the chat.subscription that goes with a needs-relink,
 * through the platform's outbox relay over the streamers' links: each is written in the same update
 * as the link change, so neither is lost when the process dies or the bus is down right after it.
 * (UNLINKED is published before the link is deleted: a failure leaves the link to unlink again.)
 */
export function createLinkOutbox(deps: {
  repo: KickLinkRepository;
  publisher: KickLinkPublisher;
  log: Logger;
}): OutboxRelay<LinkDoc> {
  const { publisher } = deps;
  return createOutboxRelay<LinkDoc, LinkMessage>({
    collection: deps.repo.links.outboxCollection,
    idField: 'id',
    name: 'kick-link',
    log: deps.log,
    publish: (link, message) => {
      const sent = { eventId: message.id, occurredAt: message.occurredAt };
      if (message.topic === 'kick.account') return publisher.kickAccount(accountKinds[message.kind], link, sent);
      return publisher.chatSubscription({
        userId: link._id,
        broadcasterUserId: link.kickUserId,
        state: ChatSubscriptionState.FAILED,
        error: message.error,
        sent,
      });
    },
  });
}

const accountKinds = {
  LINKED: KickAccountChangeKind.LINKED,
  NEEDS_RELINK: KickAccountChangeKind.NEEDS_RELINK,
} as const;
