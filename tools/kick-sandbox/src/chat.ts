import type { Clock } from '@kickstand/platform/clock';
import type { App } from './app-settings';
import { assertCanModerate, type Bans } from './bans';
import { parseEmotes } from './emotes';
import type { RealKick } from './real-kick';
import { newMessageUuid } from './ids';
import { badgesIn, type KickUsers } from './kick-users';
import type { Notifier } from './notifier';
import { chatMessageSentPayload, type PayloadParts } from './payloads';
import type { BadgeDoc, ChatMessageDoc, ChatMessageType, DeliveryDoc, KickUserDoc, Repository } from './repository';
import { channelNotFound, RuleError } from './rules';
import type { Emitter } from './webhooks/emitter';

/** The quota text Kick answers with (kick-api.md §5.1). */
export const chatQuotaText = 'Pusher error: API call failed since (daily) message quota exceeded';

export interface PostInput {
  broadcaster: KickUserDoc;
  sender: KickUserDoc;
  type: ChatMessageType;
  content: string;
  badges: BadgeDoc[];
  usernameColor: string;
  replyToMessageId: string | null;
  /** When the line was accepted (its `createdAt`); now unless told. */
  createdAt?: Date;
}

export interface ApiSend {
  type: 'user' | 'bot';
  content: string;
  broadcasterUserId?: number;
  replyToMessageId?: string;
  /**
   * When the request reached the API (Kick stamps a line when it accepts it): the line's
   * `createdAt`, so the sandbox's own queueing on a busy machine is not in it. Now unless told.
   */
  acceptedAt?: Date;
}

export interface ChatListFilter {
  broadcasterUserId?: number;
  /** With afterSeq or since: what came after, oldest first. Without: the newest `limit`, oldest first. */
  afterSeq?: number;
  since?: Date;
  type?: ChatMessageType;
  limit?: number;
}

export interface Chat {
  /** Records a message in a channel's chat and emits chat.message.sent. */
  post(input: PostInput): Promise<{ message: ChatMessageDoc; deliveries: DeliveryDoc[] }>;
  /**
   * `POST /public/v1/chat` for the token's user (§5.1's rules: bot mode, quota, bans, reply target,
   * and real Kick's switches). null: accepted but not sent (real Kick's `is_sent: false`).
   */
  sendFromApi(senderUserId: number, send: ApiSend): Promise<ChatMessageDoc | null>;
  /** `DELETE /public/v1/chat/{id}` by a moderator of the message's channel. */
  deleteFromApi(moderatorUserId: number, messageId: string): Promise<void>;
  list(filter: ChatListFilter): Promise<ChatMessageDoc[]>;
  byId(messageId: string): Promise<ChatMessageDoc | null>;
}

export function createChat(deps: {
  repo: Repository;
  users: KickUsers;
  bans: Bans;
  app: App;
  emitter: Emitter;
  parts: PayloadParts;
  clock: Clock;
  notifier: Notifier;
  realKick: RealKick;
  /** A reply to a message id never seen here is recorded as such instead of refused (load tests). */
  acceptsUnknownReplyTargets?: boolean;
}): Chat {
  const { repo, users, bans, app, emitter, parts, clock, notifier, realKick } = deps;

  /** Lines sent through the API (`user` and `bot`) per UTC day, for the daily quota; only today's is needed. */
  let sentOn = { day: '', count: 0 };
  const utcDay = (at: Date) => at.toISOString().slice(0, 10);

  /** A kept line that is not deleted. */
  const liveLine = (messageId: string): ChatMessageDoc | undefined => {
    const line = repo.chatMessages.byId(messageId);
    return line && line.deletedAt === null ? line : undefined;
  };

  async function replyTarget(broadcasterUserId: number, messageId: string | null) {
    if (messageId === null) return null;
    const line = liveLine(messageId);
    const target = line?.broadcasterUserId === broadcasterUserId ? line : undefined;
    if (!target && deps.acceptsUnknownReplyTargets) return 'unknown';
    if (!target) throw new RuleError('reply-not-found', `No message ${messageId} in this channel to reply to`);
    const sender = await users.byId(target.senderUserId);
    if (!sender) throw new RuleError('reply-not-found', `The sender of message ${messageId} no longer exists`);
    return { target, sender };
  }

  async function post(input: PostInput) {
    const found = await replyTarget(input.broadcaster.userId, input.replyToMessageId);
    // an unknown target (acceptsUnknownReplyTargets) is recorded by id; the echo carries no replies_to
    const reply = found === 'unknown' ? null : found;
    const now = input.createdAt ?? clock.now();
    const message = repo.chatMessages.add({
      _id: newMessageUuid(),
      broadcasterUserId: input.broadcaster.userId,
      senderUserId: input.sender.userId,
      senderUsername: input.sender.username,
      content: input.content,
      type: input.type,
      badges: input.badges,
      usernameColor: input.usernameColor,
      replyToMessageId: found ? input.replyToMessageId : null,
      createdAt: now,
      deletedAt: null,
    });
    if (input.type !== 'viewer') {
      const day = utcDay(clock.now());
      sentOn = { day, count: (sentOn.day === day ? sentOn.count : 0) + 1 };
    }
    notifier.notify('chat');
    const deliveries = await emitter.emit({
      type: 'chat.message.sent',
      broadcasterUserId: input.broadcaster.userId,
      payload: chatMessageSentPayload({
        messageId: message._id,
        repliesTo: reply
          ? { messageId: reply.target._id, content: reply.target.content, sender: parts.user(reply.sender) }
          : null,
        broadcaster: parts.user(input.broadcaster),
        sender: parts.user(input.sender, { username_color: input.usernameColor, badges: input.badges }),
        content: input.content,
        emotes: parseEmotes(input.content),
        createdAt: now,
      }),
    });
    return { message, deliveries };
  }

  function checkQuota(): void {
    const quota = app.settings().chatDailyQuota;
    if (quota === null) return;
    const sentToday = sentOn.day === utcDay(clock.now()) ? sentOn.count : 0;
    if (sentToday >= quota) throw new RuleError('chat-quota-exceeded', chatQuotaText);
  }

  return {
    post,

    async sendFromApi(senderUserId, send) {
      // real Kick's rate limit answers before any rule is looked at
      const outcome = realKick.nextChatCall();
      if (outcome === 'rate-limited') throw new RuleError('rate-limited', 'Too Many Requests');
      const sender = await users.byId(senderUserId);
      if (!sender) throw channelNotFound(senderUserId);
      let broadcaster: KickUserDoc | null;
      let author: KickUserDoc;
      let badges: BadgeDoc[];
      if (send.type === 'bot') {
        // real Kick (KickDevDocs #343): bot messages fail whoever sends them and whatever the body says
        const botChat = realKick.get().botChat;
        if (botChat === 'server-error') throw new RuleError('bot-refused', 'Internal server error');
        // bot messages go to the token owner's own chat, as the app's bot; broadcaster_user_id is ignored
        if (!app.settings().isBotEnabled || botChat === 'channel-not-found') {
          throw new RuleError('bot-disabled', 'Channel not found');
        }
        broadcaster = sender;
        author = await users.ensure(app.botUsername);
        badges = [{ text: 'Bot', type: 'bot' }];
      } else {
        broadcaster = await users.byId(send.broadcasterUserId ?? 0);
        if (!broadcaster) throw channelNotFound(send.broadcasterUserId ?? 0);
        if (await bans.isBanned(broadcaster.userId, sender.userId)) {
          throw new RuleError('sender-banned', 'User is banned from this chat');
        }
        author = sender;
        badges = badgesIn(broadcaster, sender.userId);
      }
      if (send.replyToMessageId !== undefined && realKick.get().replyTargets === 'refused') {
        throw new RuleError('reply-refused', 'Reply target not found');
      }
      checkQuota();
      if (outcome === 'not-sent') {
        // Kick said OK but nothing appears: the request was still checked like any other
        await replyTarget(broadcaster.userId, send.replyToMessageId ?? null);
        return null;
      }
      const { message } = await post({
        broadcaster,
        sender: author,
        type: send.type,
        content: send.content,
        badges,
        usernameColor: author.usernameColor,
        replyToMessageId: send.replyToMessageId ?? null,
        createdAt: send.acceptedAt,
      });
      return message;
    },

    async deleteFromApi(moderatorUserId, messageId) {
      const message = liveLine(messageId);
      if (!message) throw new RuleError('message-not-found', `No chat message ${messageId}`);
      const owner = await users.byId(message.broadcasterUserId);
      if (!owner) throw channelNotFound(message.broadcasterUserId);
      assertCanModerate(owner, moderatorUserId);
      repo.chatMessages.update(messageId, (line) => ({ ...line, deletedAt: clock.now() }));
      notifier.notify('chat');
    },

    async list({ broadcasterUserId, afterSeq, since, type, limit = 500 }) {
      const matches = (line: ChatMessageDoc) =>
        (broadcasterUserId === undefined || line.broadcasterUserId === broadcasterUserId) &&
        (since === undefined || line.createdAt.getTime() > since.getTime()) &&
        (type === undefined || line.type === type);
      // with a starting point, what came after it, oldest first; without, the newest (oldest first),
      // as a chat window shows them
      const from = afterSeq ?? (since === undefined ? undefined : 0);
      return Promise.resolve(repo.chatMessages.list(matches, from, limit));
    },

    byId: (messageId) => Promise.resolve(repo.chatMessages.byId(messageId) ?? null),
  };
}
