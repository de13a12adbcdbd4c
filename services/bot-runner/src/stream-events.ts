import { z } from 'zod';
import type { KickstandBus, Subscription, TopicMessage } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { timestampMs } from '@kickstand/proto';
import type { ChannelsRepository, MetadataUpdate, StatusUpdate } from './channels';
import type { EventPoster } from './event-poster';
import { botRunnerConsumerGroup } from './events';
import type { TimerScheduler } from './timer-scheduler';

/**
 * The channel's stream, from kick.event (kick-link forwards Kick's livestream.status.updated and
 * livestream.metadata.updated bodies as received, kick-api.md §8.9): live or not, since when, the
 * title and the category, kept per streamer in `channels` (channels.ts). And the chat lines the
 * timers count, from chat.received in a group of their own (`bot-runner.timers`), so counting
 * never holds up a command's answer.
 */
export const timerLinesGroup = `${botRunnerConsumerGroup}.timers`;

const rfc3339Ms = z
  .string()
  .transform((text) => Date.parse(text))
  .refine((ms) => Number.isFinite(ms));

// Loose: a body that does not fit is ignored (kick-link already checked it against the type).
const statusBody = z.looseObject({
  is_live: z.boolean(),
  title: z.string().nullish(),
  started_at: rfc3339Ms.nullish().catch(null),
});
const metadataBody = z.looseObject({
  metadata: z.looseObject({
    title: z.string().nullish(),
    category: z.looseObject({ name: z.string().nullish() }).nullish().catch(null),
  }),
});

function bodyOf(payloadJson: string): unknown {
  try {
    return JSON.parse(payloadJson) as unknown;
  } catch {
    return undefined;
  }
}

/** livestream.status.updated → what it says of the stream; undefined for another type or a body that does not fit. */
export function statusUpdateOf(message: TopicMessage<'kick.event'>, atMs: number): StatusUpdate | undefined {
  if (message.eventType !== 'livestream.status.updated') return undefined;
  const parsed = statusBody.safeParse(bodyOf(message.payloadJson));
  if (!parsed.success) return undefined;
  const { is_live: isLive, title, started_at: startedAtMs } = parsed.data;
  // a live event without started_at: the stream started about when Kick said so
  return { isLive, startedAtMs: isLive ? (startedAtMs ?? atMs) : null, title: title ?? undefined };
}

export function metadataUpdateOf(message: TopicMessage<'kick.event'>): MetadataUpdate | undefined {
  if (message.eventType !== 'livestream.metadata.updated') return undefined;
  const parsed = metadataBody.safeParse(bodyOf(message.payloadJson));
  if (!parsed.success) return undefined;
  const { title, category } = parsed.data.metadata;
  return { title: title ?? undefined, game: category?.name ?? undefined };
}

export interface StreamEventDeps {
  channels: ChannelsRepository;
  scheduler: Pick<TimerScheduler, 'countLine' | 'flushPosts'>;
  /** Event messages: thanks for follows, subscriptions, gifts…, and the go-live / offline message. */
  poster?: Pick<EventPoster, 'onThanks' | 'announcement'>;
  clock: Clock;
  log: Logger;
}

export const onKickEvent =
  ({ channels, clock, poster, scheduler }: StreamEventDeps) =>
  async (message: TopicMessage<'kick.event'>): Promise<void> => {
    if (message.ownerUserId === '') return;
    // Kick's message timestamp orders the deliveries (Kick does not); arrival when it is missing
    const atMs = message.messageTimestamp ? timestampMs(message.messageTimestamp) : clock.now().getTime();
    const status = statusUpdateOf(message, atMs);
    if (status) {
      const announce = await poster?.announcement(message, status);
      const changed = await channels.applyStatus(
        message.ownerUserId,
        message.broadcasterUserId,
        status,
        atMs,
        announce,
      );
      if (changed && announce) await scheduler.flushPosts(message.ownerUserId);
      return;
    }
    const metadata = metadataUpdateOf(message);
    if (metadata) return channels.applyMetadata(message.ownerUserId, message.broadcasterUserId, metadata, atMs);
    await poster?.onThanks(message);
  };

export const onChatLine =
  ({ scheduler }: StreamEventDeps) =>
  (message: TopicMessage<'chat.received'>): Promise<void> => {
    if (!message.isFromBot && message.ownerUserId !== '') scheduler.countLine(message.ownerUserId);
    return Promise.resolve();
  };

export async function subscribeStreamEvents(bus: KickstandBus, deps: StreamEventDeps): Promise<Subscription[]> {
  return Promise.all([
    bus.subscribe('kick.event', botRunnerConsumerGroup, onKickEvent(deps)),
    bus.subscribe('chat.received', timerLinesGroup, onChatLine(deps)),
  ]);
}
