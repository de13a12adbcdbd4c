import type { Clock } from '@kickstand/platform/clock';
import { categoryById } from './categories';
import type { KickUsers } from './kick-users';
import { livestreamMetadataPayload, livestreamStatusPayload, type PayloadParts } from './payloads';
import type { ChannelState, DeliveryDoc, KickUserDoc } from './repository';
import { channelNotFound, RuleError } from './rules';
import type { Emitter } from './webhooks/emitter';

export interface MetadataChange {
  streamTitle?: string;
  categoryId?: number;
  language?: string;
  isMature?: boolean;
  customTags?: string[];
}

export interface ChannelChange<T = KickUserDoc> {
  channel: T;
  deliveries: DeliveryDoc[];
}

/** Live state and metadata of channels, and the livestream events their changes cause. */
export interface Channels {
  startStream(broadcasterUserId: number, input: { title?: string }): Promise<ChannelChange>;
  endStream(broadcasterUserId: number): Promise<ChannelChange>;
  /** Emits livestream.metadata.updated when title, category, language or the mature flag changed. */
  updateMetadata(broadcasterUserId: number, change: MetadataChange): Promise<ChannelChange>;
  /** Sets state without any event: for tests of a product that missed one and must reconcile. */
  setState(broadcasterUserId: number, changes: Partial<ChannelState>): Promise<KickUserDoc>;
}

export function createChannels(deps: {
  users: KickUsers;
  emitter: Emitter;
  parts: PayloadParts;
  clock: Clock;
}): Channels {
  const { users, emitter, parts, clock } = deps;

  async function owner(broadcasterUserId: number): Promise<KickUserDoc> {
    const user = await users.byId(broadcasterUserId);
    if (!user) throw channelNotFound(broadcasterUserId);
    return user;
  }

  async function update(broadcasterUserId: number, changes: Partial<ChannelState>): Promise<KickUserDoc> {
    const updated = await users.updateChannel(broadcasterUserId, changes);
    if (!updated) throw channelNotFound(broadcasterUserId);
    return updated;
  }

  const statusEvent = (user: KickUserDoc) => {
    const { isLive, streamTitle, startedAt, endedAt } = user.channel;
    return emitter.emit({
      type: 'livestream.status.updated',
      broadcasterUserId: user.userId,
      payload: livestreamStatusPayload({
        broadcaster: parts.user(user),
        isLive,
        title: streamTitle,
        startedAt: startedAt ?? clock.now(),
        endedAt: isLive ? null : endedAt,
      }),
    });
  };

  return {
    async startStream(broadcasterUserId, input) {
      const before = await owner(broadcasterUserId);
      if (before.channel.isLive) throw new RuleError('already-live', `${before.username} is already live`);
      const channel = await update(broadcasterUserId, {
        isLive: true,
        startedAt: clock.now(),
        endedAt: null,
        streamTitle: input.title ?? before.channel.streamTitle,
        viewerCount: before.channel.viewerCount || 1,
      });
      return { channel, deliveries: await statusEvent(channel) };
    },

    async endStream(broadcasterUserId) {
      const before = await owner(broadcasterUserId);
      if (!before.channel.isLive) throw new RuleError('not-live', `${before.username} is not live`);
      // started_at stays: the end event repeats it, so (broadcaster, started_at) names the stream
      const channel = await update(broadcasterUserId, { isLive: false, endedAt: clock.now(), viewerCount: 0 });
      return { channel, deliveries: await statusEvent(channel) };
    },

    async updateMetadata(broadcasterUserId, change) {
      const before = await owner(broadcasterUserId);
      if (change.categoryId !== undefined && !categoryById(change.categoryId)) {
        throw new RuleError('category-not-found', `No category with id ${change.categoryId}`);
      }
      const channel = await update(broadcasterUserId, change);
      const isChanged = (['streamTitle', 'categoryId', 'language', 'isMature'] as const).some(
        (field) => before.channel[field] !== channel.channel[field],
      );
      if (!isChanged) return { channel, deliveries: [] };
      // a full snapshot, not a diff, as Kick sends it
      const deliveries = await emitter.emit({
        type: 'livestream.metadata.updated',
        broadcasterUserId,
        payload: livestreamMetadataPayload({
          broadcaster: parts.user(channel),
          title: channel.channel.streamTitle,
          language: channel.channel.language,
          hasMatureContent: channel.channel.isMature,
          category: parts.category(channel.channel.categoryId),
        }),
      });
      return { channel, deliveries };
    },

    setState: update,
  };
}
