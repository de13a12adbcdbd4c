import type { TopicMessage } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { KickLinkPublisher } from './events';
import { KickApiError, KickUnreachableError, kickProblem, type KickChatMessage, type KickClient } from './kick-client';
import { NeedsRelinkError, NotLinkedError, needsRelinkMessage, notLinkedMessage, type UserTokens } from './kick-tokens';
import type { KickLinkRepository, SendOutcome } from './repository';
import type { ChatSenderMode } from './options';

/** Kick's limit (kick-api.md §5.1), in characters (code points). */
export const chatContentMaxLength = 500;

export function cutToLimit(content: string, max = chatContentMaxLength): string {
  const characters = Array.from(content);
  return characters.length <= max ? content : characters.slice(0, max).join('');
}

// ---------------------------------------------------------------------------------------------
// The product's own lines: what comes back through the webhook is marked is_from_bot
// ---------------------------------------------------------------------------------------------

export interface ChatLine {
  broadcasterUserId: string;
  messageId: string;
  content: string;
  senderUserId: string;
  senderUsername: string;
}

/**
 * Kick echoes every line posted through POST /chat as a chat.message.sent delivery (kick-api.md
 * §5.1, gotcha 8). A line is ours when its message id is one Kick returned to us, when it matches a
 * send still in flight (the echo can overtake Kick's answer), when its sender is the configured or
 * learned bot account, or — posting as the channel owner (`user` mode) — when the store knows the
 * id (another kick-link instance sent it). Only that last case reads the store, and only for the
 * streamer's own lines.
 */
export interface OwnLines {
  isOwn(line: ChatLine): Promise<boolean>;
  /** A send is about to go out; returns a handle for `sent` and `settled`. */
  sending(broadcasterUserId: string, content: string): symbol;
  sent(messageId: string): void;
  settled(handle: symbol): void;
}

export function createOwnLines(deps: {
  repo: KickLinkRepository;
  clock: Clock;
  mode: ChatSenderMode;
  botUsername: string | undefined;
}): OwnLines {
  const { repo, clock, mode } = deps;
  const keepMs = 10 * 60 * 1000;
  const maxRecent = 10_000;
  const recent = new Map<string, number>();
  const inFlight = new Map<symbol, { broadcasterUserId: string; content: string }>();
  const botUserIds = new Set<string>();
  const botUsername = deps.botUsername?.toLowerCase();

  function prune(now: number) {
    for (const [id, expiresAt] of recent) {
      if (expiresAt > now && recent.size <= maxRecent) break;
      recent.delete(id);
    }
  }

  return {
    async isOwn(line) {
      const now = clock.now().getTime();
      const isSenderTheChannel = line.senderUserId === line.broadcasterUserId;
      const expiresAt = recent.get(line.messageId);
      if (expiresAt !== undefined && expiresAt > now) {
        // posting as the app's bot: the sender is that bot account, whatever it is called
        if (mode === 'bot' && !isSenderTheChannel) botUserIds.add(line.senderUserId);
        return true;
      }
      for (const pending of inFlight.values()) {
        if (pending.broadcasterUserId === line.broadcasterUserId && pending.content === line.content) return true;
      }
      if (botUsername !== undefined && line.senderUsername.toLowerCase() === botUsername) return true;
      if (botUserIds.has(line.senderUserId) && !isSenderTheChannel) return true;
      if (mode === 'user' && isSenderTheChannel) return repo.sentMessages.exists(line.messageId);
      return false;
    },
    sending(broadcasterUserId, content) {
      const handle = Symbol('send');
      inFlight.set(handle, { broadcasterUserId, content });
      return handle;
    },
    sent(messageId) {
      const now = clock.now().getTime();
      recent.set(messageId, now + keepMs);
      prune(now);
    },
    settled(handle) {
      inFlight.delete(handle);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// chat.send → POST /chat → chat.sent, at most once per idempotency key
// ---------------------------------------------------------------------------------------------

export interface ChatSender {
  handle(message: TopicMessage<'chat.send'>): Promise<void>;
}

export interface ChatSenderDeps {
  repo: KickLinkRepository;
  kick: KickClient;
  userTokens: UserTokens;
  ownLines: OwnLines;
  publisher: KickLinkPublisher;
  clock: Clock;
  log: Logger;
  mode: ChatSenderMode;
}

/**
 * The idempotency key is claimed (unique index, kept two days) before Kick is called, so a
 * chat.send delivered twice is posted once: a crash between the claim and the call loses that one
 * line, and nothing can post it twice. The outcome is stored with the claim before chat.sent is
 * published, so a redelivery after a failed publish publishes it then.
 */
export function createChatSender(deps: ChatSenderDeps): ChatSender {
  const { repo, kick, userTokens, ownLines, publisher, clock, log, mode } = deps;

  async function publish(message: TopicMessage<'chat.send'>, outcome: SendOutcome): Promise<void> {
    await publisher.chatSent({
      idempotencyKey: message.idempotencyKey,
      broadcasterUserId: message.broadcasterUserId,
      ownerUserId: message.ownerUserId,
      isSent: outcome.isSent,
      error: outcome.error,
      messageId: outcome.messageId,
      content: outcome.content,
      replyToMessageId: message.replyToMessageId,
      replyToUsername: message.replyToUsername,
      sentAt: outcome.sentAt,
      origin: message.origin,
      sourceReceivedAt: message.sourceReceivedAt,
    });
    await repo.sendClaims.markPublished(message.idempotencyKey);
  }

  async function post(message: TopicMessage<'chat.send'>, content: string): Promise<SendOutcome> {
    const failed = (error: string): SendOutcome => ({
      isSent: false,
      error,
      messageId: '',
      content,
      sentAt: clock.now(),
    });
    const link = await repo.links.byKickUser(message.broadcasterUserId);
    if (!link) return failed(notLinkedMessage);
    if (message.ownerUserId !== '' && message.ownerUserId !== link._id) {
      return failed('This channel is linked to another Kickstand user');
    }
    const body: KickChatMessage =
      mode === 'user'
        ? { type: 'user', broadcasterUserId: link.kickUserId, content, replyToMessageId: message.replyToMessageId }
        : { type: 'bot', content, replyToMessageId: message.replyToMessageId };
    const handle = ownLines.sending(link.kickUserId, content);
    try {
      const sent = await userTokens.withUserToken(link._id, (token) => kick.sendChat(token, body));
      if (!sent.isSent) return failed('Kick did not post the message');
      ownLines.sent(sent.messageId);
      // only read for the streamer's own lines (user mode): as the app's bot the echo's sender tells
      if (mode === 'user') {
        await repo.sentMessages
          .record(sent.messageId, link.kickUserId, clock.now())
          .catch((err: unknown) => log.warn({ err }, 'could not remember a sent chat message id'));
      }
      return { isSent: true, error: '', messageId: sent.messageId, content, sentAt: clock.now() };
    } catch (error) {
      if (error instanceof NeedsRelinkError) return failed(needsRelinkMessage);
      if (error instanceof NotLinkedError) return failed(notLinkedMessage);
      if (error instanceof KickApiError) return failed(`Kick refused the message: ${error.reason}`);
      if (error instanceof KickUnreachableError) {
        // not retried: Kick may have posted it, and a second post could make the bot speak twice
        log.warn({ err: error, broadcasterUserId: link.kickUserId }, 'POST /chat did not answer');
        return failed('Kick could not be reached; the message was not confirmed');
      }
      log.error({ err: error, broadcasterUserId: link.kickUserId }, 'sending a chat message failed');
      return failed(`The message could not be sent: ${kickProblem(error)}`);
    } finally {
      ownLines.settled(handle);
    }
  }

  return {
    async handle(message) {
      const key = message.idempotencyKey;
      if (key === '' || message.broadcasterUserId === '0' || message.content.trim() === '') {
        log.warn(
          { eventId: message.eventId, broadcasterUserId: message.broadcasterUserId },
          'chat.send without an idempotency key, a channel or content: dropped',
        );
        return;
      }
      if (!(await repo.sendClaims.claim(key, clock.now()))) {
        // seen before: at most publish an outcome that was stored but never made it onto the bus
        const claim = await repo.sendClaims.get(key);
        if (claim?.outcome && !claim.isPublished) await publish(message, claim.outcome);
        return;
      }
      const outcome = await post(message, cutToLimit(message.content));
      await repo.sendClaims.recordOutcome(key, outcome);
      await publish(message, outcome);
    },
  };
}
