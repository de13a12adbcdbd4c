import type { KickstandBus, Subscription, TopicMessage } from '@kickstand/platform/bus';
import type { Logger } from '@kickstand/platform/log';
import { createOutboxRelay } from '@kickstand/platform/outbox';
import { ChatOrigin, CommandKind, Game, GameEventKind, timestampFromMs } from '@kickstand/proto';
import type { ChatLineEntry, GameEventEntry, GameEventKindName, OutboxEntry } from './games/outbox';
import type { ChannelDoc, GamesRepository } from './repository';

/** Instances of this service share the group: each channel's chat reaches one of them. */
export const gamesConsumerGroup = 'games';

const kinds: Record<GameEventKindName, GameEventKind> = {
  started: GameEventKind.STARTED,
  attacked: GameEventKind.ATTACKED,
  guessed: GameEventKind.GUESSED,
  announced: GameEventKind.ANNOUNCED,
  ended: GameEventKind.ENDED,
};

/** A chat line, and when it answers a command, that command's command.executed (the admin's analytics). */
export async function publishChatLine(
  bus: KickstandBus,
  broadcasterUserId: string,
  entry: ChatLineEntry,
): Promise<void> {
  await publishChatSend(bus, broadcasterUserId, entry);
  const executed = entry.executed;
  if (!executed) return;
  await bus.publish('command.executed', entry.ownerUserId, {
    // built from the entry, so a second relay is counted once downstream
    eventId: `executed:${entry.id}`,
    occurredAt: timestampFromMs(entry.createdAtMs),
    ownerUserId: entry.ownerUserId,
    broadcasterUserId,
    command: executed.command,
    invokedByUsername: executed.invokedByUsername,
    invokedByUserId: executed.invokedByUserId,
    messageId: entry.replyToMessageId ?? '',
    response: entry.content,
    executedAt: timestampFromMs(entry.createdAtMs),
    kind: executed.kind === 'game' ? CommandKind.GAME : CommandKind.BUILT_IN,
  });
}

/**
 * chat.send's source_sent_at, the line's own time (kick-link counts its age from it): the answered
 * message's, or an announcement's making. A reply kept before the field existed has none: kick-link
 * then goes by source_received_at as before.
 */
function sourceSentAtOf(entry: ChatLineEntry): { sourceSentAt?: ReturnType<typeof timestampFromMs> } {
  if (entry.sourceSentAtMs !== undefined) return { sourceSentAt: timestampFromMs(entry.sourceSentAtMs) };
  return entry.replyToMessageId === undefined ? { sourceSentAt: timestampFromMs(entry.createdAtMs) } : {};
}

function publishChatSend(bus: KickstandBus, broadcasterUserId: string, entry: ChatLineEntry): Promise<void> {
  return bus.publish('chat.send', broadcasterUserId, {
    // the same input gives the same event id and key, so a second relay is recognisable downstream
    eventId: `chat-send:${entry.id}`,
    occurredAt: timestampFromMs(entry.createdAtMs),
    idempotencyKey: entry.id,
    broadcasterUserId,
    ownerUserId: entry.ownerUserId,
    content: entry.content,
    origin: ChatOrigin.GAME,
    ...(entry.replyToMessageId !== undefined ? { replyToMessageId: entry.replyToMessageId } : {}),
    ...(entry.replyToUsername !== undefined ? { replyToUsername: entry.replyToUsername } : {}),
    ...(entry.sourceReceivedAtMs !== undefined ? { sourceReceivedAt: timestampFromMs(entry.sourceReceivedAtMs) } : {}),
    ...sourceSentAtOf(entry),
  });
}

export function publishGameEvent(bus: KickstandBus, broadcasterUserId: string, entry: GameEventEntry): Promise<void> {
  return bus.publish('game.event', broadcasterUserId, {
    eventId: entry.id,
    occurredAt: timestampFromMs(entry.createdAtMs),
    ownerUserId: entry.ownerUserId,
    broadcasterUserId,
    gameId: entry.gameId,
    game: entry.game === 'raid-boss' ? Game.RAID_BOSS : Game.GUESS_MY_BALANCE,
    kind: kinds[entry.kind],
    summary: entry.summary,
    actorUsername: entry.actorUsername ?? '',
    actorUserId: entry.actorUserId ?? '0',
    endsAt: timestampFromMs(entry.endsAtMs),
    leaderboard: entry.leaderboard.map((row) => ({ rank: row.rank, username: row.username, value: row.value })),
    details: entry.raidBoss
      ? { case: 'raidBoss', value: { ...entry.raidBoss } }
      : entry.guessBalance
        ? { case: 'guessMyBalance', value: { ...entry.guessBalance } }
        : { case: undefined },
  });
}

export interface OutboxRelay {
  /** Publishes what the channel's outbox holds, in order, pulling each entry once published. Never throws. */
  flush(broadcasterUserId: string): Promise<void>;
  /** Publishes a line that changes no state (a hero or MMR answer) straight away. */
  publishNow(broadcasterUserId: string, entry: OutboxEntry): Promise<void>;
}

/**
 * The platform's outbox relay over the channels' `outbox`. An entry is published, then pulled: a
 * crash in between publishes it again after the restart, with the same idempotency key / event
 * id, which kick-link and consumers dedupe on. The flushes of one channel run one at a time in
 * this process, so the chat handler and the scheduler never relay the same entry twice; what a
 * failed flush leaves is relayed by the scheduler (a channel with an outbox is due).
 */
export function createGamesOutboxRelay(deps: { bus: KickstandBus; repo: GamesRepository; log: Logger }): OutboxRelay {
  const { bus, repo, log } = deps;
  const publish = (broadcasterUserId: string, entry: OutboxEntry) =>
    entry.type === 'chat'
      ? publishChatLine(bus, broadcasterUserId, entry)
      : publishGameEvent(bus, broadcasterUserId, entry);
  const relay = createOutboxRelay<ChannelDoc, OutboxEntry>({
    collection: repo.outboxCollection,
    idField: 'id',
    publish: (channel, entry) => publish(channel._id, entry),
    log,
    name: 'games',
  });
  return { flush: relay.flush, publishNow: publish };
}

export interface GamesHandlers {
  onChat(message: TopicMessage<'chat.received'>): Promise<void>;
  onBotStatus(message: TopicMessage<'bot.status'>): Promise<void>;
}

/** In: chat.received (key broadcaster) and bot.status (key user), both in the `games` group. */
export async function subscribeGamesEvents(bus: KickstandBus, handlers: GamesHandlers): Promise<Subscription[]> {
  return [
    await bus.subscribe('chat.received', gamesConsumerGroup, (message) => handlers.onChat(message)),
    await bus.subscribe('bot.status', gamesConsumerGroup, (message) => handlers.onBotStatus(message)),
  ];
}
