import { categoryById } from '../categories';
import type { ImageUrls } from '../images';
import type { EventSubscriptionDoc, KickUserDoc } from '../repository';
import { rfc3339Seconds } from '../time';

/** What an offline channel shows as its stream start: Go's zero time, an RFC 3339 "zero" [kick-api.md §4.1]. */
export const offlineStartTime = '0001-01-01T00:00:00Z';

/** §3.1. `email` is only filled for the token's own user; others get an empty string, keeping one shape. */
export function presentUser(user: KickUserDoc, images: ImageUrls, isSelf: boolean) {
  return {
    user_id: user.userId,
    name: user.username,
    email: isSelf ? user.email : '',
    profile_picture: images.avatar(user.userId),
  };
}

/** §4.1. Stream key and ingest URL only for the owner's token with streamkey:read. */
export function presentChannel(user: KickUserDoc, images: ImageUrls, canSeeStreamKey: boolean) {
  const channel = user.channel;
  const isLive = channel.isLive;
  return {
    broadcaster_user_id: user.userId,
    slug: user.slug,
    channel_description: channel.description,
    banner_picture: images.banner(user.userId),
    stream_title: channel.streamTitle,
    category: {
      id: channel.categoryId,
      name: categoryById(channel.categoryId)?.name ?? '',
      thumbnail: images.category(channel.categoryId),
    },
    // offline: the stream's fields are empty or zero (kick-api.md §4.1)
    stream: {
      is_live: isLive,
      is_mature: isLive && channel.isMature,
      language: isLive ? channel.language : '',
      start_time: isLive && channel.startedAt ? rfc3339Seconds(channel.startedAt) : offlineStartTime,
      viewer_count: isLive ? channel.viewerCount : 0,
      thumbnail: isLive ? images.streamThumbnail(user.userId) : '',
      custom_tags: isLive ? channel.customTags : [],
      url: canSeeStreamKey ? channel.streamUrl : '',
      key: canSeeStreamKey ? channel.streamKey : '',
    },
    active_subscribers_count: channel.activeSubscribersCount,
    canceled_subscribers_count: channel.canceledSubscribersCount,
  };
}

/** §8.3: the listing says `event` where POST says `name`. */
export function presentSubscription(subscription: EventSubscriptionDoc) {
  return {
    id: subscription._id,
    app_id: subscription.appId,
    broadcaster_user_id: subscription.broadcasterUserId,
    event: subscription.event,
    version: subscription.version,
    method: subscription.method,
    created_at: rfc3339Seconds(subscription.createdAt),
    updated_at: rfc3339Seconds(subscription.updatedAt),
  };
}
