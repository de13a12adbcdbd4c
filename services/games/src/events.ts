import type { KickstandBus, Subscription, TopicMessage } from '@kickstand/platform/bus';
import type { Logger } from '@kickstand/platform/log';
import { ChatOrigin, CommandKind, Game, GameEventKind } from '@kickstand/proto';
import type { ChatLineEntry, GameEventEntry, GameEventKindName, OutboxEntry } from './games/outbox';
import type { GamesRepository } from './repository';

/** Instances of this service share the group: each channel's chat reaches one of them. */
export const gamesConsumerGroup = 'games';

/** A google.protobuf.Timestamp init, written out (@bufbuild/protobuf is proto's dependency, not ours). */
export function timestampOf(ms: number): { seconds: bigint; nanos: number } {
  const seconds = Math.floor(ms / 1000);
  return { seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 };
}

/** The epoch ms of a decoded google.protobuf.Timestamp, or undefined when it is unset. */
export function msOf(timestamp: { seconds: bigint; nanos: number } | undefined): number | undefined {
  if (!timestamp) return undefined;
  return Number(timestamp.seconds) * 1000 + Math.floor(timestamp.nanos / 1_000_000);
}

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
    occurredAt: timestampOf(entry.createdAtMs),
    ownerUserId: entry.ownerUserId,
    broadcasterUserId,
    command: executed.command,
    invokedByUsername: executed.invokedByUsername,
    invokedByUserId: executed.invokedByUserId,
    messageId: entry.replyToMessageId ?? '',
    response: entry.content,
    executedAt: timestampOf(entry.createdAtMs),
    kind: executed.kind === 'game' ? CommandKind.GAME : CommandKind.BUILT_IN,
  });
}

function publishChatSend(bus: KickstandBus, broadcasterUserId: string, entry: ChatLineEntry): Promise<void> {
  return bus.publish('chat.send', broadcasterUserId, {
    // the same input gives the same event id and key, so a second relay is recognisable downstream
    eventId: `chat-send:${entry.id}`,
    occurredAt: timestampOf(entry.createdAtMs),
    idempotencyKey: entry.id,
    broadcasterUserId,
    ownerUserId: entry.ownerUserId,
    content: entry.content,
    origin: ChatOrigin.GAME,
    ...(entry.replyToMessageId !== undefined ? { replyToMessageId: entry.replyToMessageId } : {}),
    ...(entry.replyToUsername !== undefined ? { replyToUsername: entry.replyToUsername } : {}),
    ...(entry.sourceReceivedAtMs !== undefined ? { sourceReceivedAt: timestampOf(entry.sourceReceivedAtMs) } : {}),
  });
}

export function publishGameEvent(bus: KickstandBus, broadcasterUserId: string, entry: GameEventEntry): Promise<void> {
  return bus.publish('game.event', broadcasterUserId, {
    eventId: entry.id,
    occurredAt: timestampOf(entry.createdAtMs),
    ownerUserId: entry.ownerUserId,
    broadcasterUserId,
    gameId: entry.gameId,
    game: entry.game === 'raid-boss' ? Game.RAID_BOSS : Game.GUESS_MY_BALANCE,
    kind: kinds[entry.kind],
    summary: entry.summary,
    actorUsername: entry.actorUsername ?? '',
    actorUserId: entry.actorUserId ?? '0',
    endsAt: timestampOf(entry.endsAtMs),
    leaderboard: entry.leaderboard.map((row) => ({ rank: row.rank, username: row.username, value: row.value })),
    details: entry.raidBoss
      ? { case: 'raidBoss', value: { ...entry.raidBoss } }
      : entry.guessBalance
        ? { case: 'guessMyBalance', value: { ...entry.guessBalance } }
        : { case: undefined },
  });
}

export interface OutboxRelay {
  /** Publishes what the channel's outbox holds, in order, pulling each entry once published. */
  flush(broadcasterUserId: string): Promise<void>;
  /** Publishes a line that changes no state (a hero or MMR answer) straight away. */
  publishNow(broadcasterUserId: string, entry: OutboxEntry): Promise<void>;
}

/**
 * The outbox relay. An entry is published, then pulled: a crash in between publishes it again
 * after the restart, with the same idempotency key / event id, which kick-link and consumers
 * dedupe on. Within this process the flushes of one channel run one at a time, so the chat
 * handler and the scheduler never relay the same entry twice.
 */
export function createOutboxRelay(deps: { bus: KickstandBus; repo: GamesRepository; log: Logger }): OutboxRelay {
  const { bus, repo } = deps;
  const queues = new Map<string, Promise<void>>();

  const publish = (broadcasterUserId: string, entry: OutboxEntry) =>
    entry.type === 'chat'
      ? publishChatLine(bus, broadcasterUserId, entry)
      : publishGameEvent(bus, broadcasterUserId, entry);

  async function flushNow(broadcasterUserId: string): Promise<void> {
    const channel = await repo.findChannel(broadcasterUserId);
    for (const entry of channel?.outbox ?? []) {
      await publish(broadcasterUserId, entry);
      await repo.pullOutboxEntry(broadcasterUserId, entry.id);
    }
  }

  return {
    flush: (broadcasterUserId) => {
      const previous = queues.get(broadcasterUserId) ?? Promise.resolve();
      const next = previous.catch(() => undefined).then(() => flushNow(broadcasterUserId));
      queues.set(broadcasterUserId, next);
      void next
        .finally(() => {
          if (queues.get(broadcasterUserId) === next) queues.delete(broadcasterUserId);
        })
        .catch(() => undefined);
      return next;
    },
    publishNow: publish,
  };
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
