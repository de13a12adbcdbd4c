import { categoryById } from '../categories';
import type { ImageUrls } from '../images';
import type { BanDoc, CallDoc, ChatMessageDoc, DeliveryDoc, EventSubscriptionDoc, KickUserDoc } from '../repository';

/** Control-API views: camelCase, plain JSON, and never a stream key or a token. */
export function userView(user: KickUserDoc, images: ImageUrls) {
  const { streamKey: _streamKey, streamUrl: _streamUrl, subscribers, ...channel } = user.channel;
  return {
    userId: user.userId,
    username: user.username,
    slug: user.slug,
    email: user.email,
    isVerified: user.isVerified,
    usernameColor: user.usernameColor,
    profilePicture: images.avatar(user.userId),
    createdAt: user.createdAt,
    channel: { ...channel, categoryName: categoryById(channel.categoryId)?.name ?? '', subscribers },
  };
}

export function chatView(message: ChatMessageDoc, replyTo: ChatMessageDoc | null | undefined) {
  return {
    seq: message.seq,
    messageId: message._id,
    broadcasterUserId: message.broadcasterUserId,
    senderUserId: message.senderUserId,
    senderUsername: message.senderUsername,
    content: message.content,
    type: message.type,
    badges: message.badges,
    usernameColor: message.usernameColor,
    replyToMessageId: message.replyToMessageId,
    replyTo: replyTo
      ? { messageId: replyTo._id, content: replyTo.content, senderUsername: replyTo.senderUsername }
      : null,
    createdAt: message.createdAt,
    deletedAt: message.deletedAt,
  };
}

export function deliveryView(delivery: DeliveryDoc) {
  return {
    seq: delivery.seq,
    id: delivery._id,
    messageId: delivery.messageId,
    subscriptionId: delivery.subscriptionId,
    broadcasterUserId: delivery.broadcasterUserId,
    eventType: delivery.eventType,
    eventVersion: delivery.eventVersion,
    state: delivery.state,
    faults: delivery.faults,
    attempts: delivery.attempts,
    createdAt: delivery.createdAt,
    body: delivery.body,
    payload: JSON.parse(delivery.body) as unknown,
  };
}

export function callView(call: CallDoc) {
  return {
    seq: call.seq,
    at: call.at,
    endpoint: call.endpoint,
    method: call.method,
    path: call.path,
    query: JSON.parse(call.queryJson) as unknown,
    body: call.bodyJson === null ? null : (JSON.parse(call.bodyJson) as unknown),
    tokenType: call.tokenType,
    tokenUserId: call.tokenUserId,
    status: call.status,
    error: call.error,
  };
}

export function banView(ban: BanDoc, now: Date) {
  const isActive = ban.liftedAt === null && (ban.expiresAt === null || ban.expiresAt.getTime() > now.getTime());
  return {
    seq: ban.seq,
    id: ban._id,
    broadcasterUserId: ban.broadcasterUserId,
    userId: ban.userId,
    moderatorUserId: ban.moderatorUserId,
    reason: ban.reason,
    source: ban.source,
    isTimeout: ban.expiresAt !== null,
    createdAt: ban.createdAt,
    expiresAt: ban.expiresAt,
    liftedAt: ban.liftedAt,
    isActive,
  };
}

export function subscriptionView(subscription: EventSubscriptionDoc) {
  return {
    id: subscription._id,
    broadcasterUserId: subscription.broadcasterUserId,
    event: subscription.event,
    version: subscription.version,
    createdAt: subscription.createdAt,
    consecutiveFailures: subscription.consecutiveFailures,
  };
}
