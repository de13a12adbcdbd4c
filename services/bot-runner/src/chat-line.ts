import type { TopicMessage } from '@kickstand/platform/bus';
import { messageTimeMs } from '@kickstand/platform/clock';
import { timestampMs } from '@kickstand/proto';
import type { ChatLine } from './dispatch';

/**
 * The part of a chat.received that bot-runner judges (commands and moderation filters alike), with
 * the time its viewer sent it: Kick's created_at bounded by the arrival (messageTimeMs).
 */
export function chatLineOf(message: TopicMessage<'chat.received'>, nowMs: number): ChatLine {
  return {
    messageId: message.messageId,
    broadcasterUserId: message.broadcasterUserId,
    broadcasterUsername: message.broadcasterUsername,
    ownerUserId: message.ownerUserId,
    senderUsername: message.sender?.username ?? '',
    senderUserId: message.sender?.userId ?? '0',
    content: message.content,
    isFromBot: message.isFromBot,
    senderBadges: message.sender?.identity?.badges.map((badge) => badge.type) ?? [],
    sentAtMs: messageTimeMs({
      createdAtMs: message.createdAt && timestampMs(message.createdAt),
      receivedAtMs: message.receivedAt && timestampMs(message.receivedAt),
      nowMs,
    }),
  };
}
