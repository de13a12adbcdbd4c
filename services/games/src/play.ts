import type { TopicMessage } from '@kickstand/platform/bus';
import { stripControlCharacters } from '@kickstand/platform/chat';
import { messageTimeMs, type Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { timestampDate, timestampMs } from '@kickstand/proto';
import { commandNameOf, isBroadcaster, parseChatIntent } from './chat-commands';
import { heroReply, mmrReply, type Hero } from './games/dota';
import { advanceGame, nextDueMs, playCommand, type ChannelStep, type GameIntent } from './games/one-at-a-time';
import { replyTo, type ChatInput } from './games/outbox';
import { type OutboxRelay } from './events';
import type { OpenDotaClient } from './opendota-client';
import type { Random } from '@kickstand/chat-language';
import type { ChannelDoc, GamesRepository } from './repository';

export interface Play {
  /** chat.received: a built-in command of a channel whose bot runs is played or answered. */
  onChat(message: TopicMessage<'chat.received'>): Promise<void>;
  /** bot.status: kept as a read model (only running bots play). */
  onBotStatus(message: TopicMessage<'bot.status'>): Promise<void>;
  /** The scheduler's step for one channel: due timers, then the outbox relayed. */
  advance(broadcasterUserId: string): Promise<void>;
}

export interface PlayDeps {
  repo: GamesRepository;
  relay: OutboxRelay;
  clock: Clock;
  random: Random;
  openDota: OpenDotaClient;
  heroes: () => readonly Hero[];
  log: Logger;
}

/** How often a write is tried again after losing a version race to another writer. */
const maxWriteAttempts = 5;

/**
 * The use cases behind the two doors (bus and scheduler): read the channel's document, let the
 * pure rules decide, write state and outbox in one version-guarded update, then relay.
 */
export function createPlay(deps: PlayDeps): Play {
  const { repo, relay, clock, random, openDota, log } = deps;

  /** Applies a decision to the channel's document until it lands (or there is nothing to do). */
  async function update(
    broadcasterUserId: string,
    ownerUserId: string,
    decide: (channel: ChannelDoc, nowMs: number) => (ChannelStep & { messageId?: string }) | null,
  ): Promise<void> {
    for (let attempt = 1; attempt <= maxWriteAttempts; attempt += 1) {
      const channel = await repo.ensureChannel(broadcasterUserId, ownerUserId);
      const step = decide(channel, clock.now().getTime());
      if (!step || (step.outbox.length === 0 && step.game === channel.game)) return;
      const due = nextDueMs(step.game);
      const saved = await repo.saveChannel(
        broadcasterUserId,
        channel.version,
        {
          game: step.game,
          nextDueAt: due === null ? null : new Date(due),
          recentMessageIds: step.messageId ? [...channel.recentMessageIds, step.messageId] : channel.recentMessageIds,
        },
        step.outbox,
      );
      if (saved) return;
    }
    throw new Error(`channel ${broadcasterUserId}: the game document kept changing; the message will be retried`);
  }

  async function onChat(message: TopicMessage<'chat.received'>): Promise<void> {
    if (message.isFromBot) return;
    const intent = parseChatIntent(message.content);
    if (!intent) return;
    const broadcasterUserId = message.broadcasterUserId;
    if (!message.ownerUserId || !message.messageId || !broadcasterUserId || broadcasterUserId === '0') return;
    if (!(await repo.isBotRunning(message.ownerUserId))) return;

    const isBuiltIn = intent.kind === 'hero' || intent.kind === 'mmr';
    const chat: ChatInput = {
      ...chatInputOf(message, clock.now().getTime()),
      command: { name: commandNameOf(message.content), kind: isBuiltIn ? 'built-in' : 'game' },
    };
    if (intent.kind === 'hero' || intent.kind === 'mmr') {
      const content = intent.kind === 'hero' ? heroReply(deps.heroes(), intent.query) : await mmrAnswer(chat);
      await relay.publishNow(broadcasterUserId, replyTo(chat, content, clock.now().getTime()));
      return;
    }
    const gameIntent: GameIntent = intent;
    await update(broadcasterUserId, chat.ownerUserId, (channel, nowMs) => {
      // a replayed message (at-least-once delivery) was played already: only the relay is left
      if (channel.recentMessageIds.includes(chat.messageId)) return null;
      return { ...playCommand(channel.game, gameIntent, chat, nowMs, random), messageId: chat.messageId };
    });
    await relay.flush(broadcasterUserId);
  }

  async function mmrAnswer(chat: ChatInput): Promise<string> {
    const settings = await repo.findSettings(chat.ownerUserId);
    if (settings?.steamAccountId == null) return mmrReply(null);
    return mmrReply(await openDota.player(settings.steamAccountId));
  }

  return {
    onChat,

    onBotStatus: async (message) => {
      if (!message.userId) return;
      await repo.recordBotStatus(message.userId, {
        isRunning: message.isRunning,
        broadcasterUserId: message.broadcasterUserId,
        occurredAt: message.occurredAt ? timestampDate(message.occurredAt) : clock.now(),
      });
      log.debug({ userId: message.userId, isRunning: message.isRunning }, 'bot status recorded');
    },

    advance: async (broadcasterUserId) => {
      const channel = await repo.findChannel(broadcasterUserId);
      if (!channel) return;
      await update(broadcasterUserId, channel.ownerUserId, (current, nowMs) => advanceGame(current.game, nowMs));
      await relay.flush(broadcasterUserId);
    },
  };
}

/**
 * What a game knows of a chat line. Names go into the game's own chat lines ("X started a raid
 * boss"), so they come without control characters: a name holding a newline cannot forge a line.
 */
export function chatInputOf(message: TopicMessage<'chat.received'>, nowMs: number): ChatInput {
  const sender = message.sender;
  const badgeTypes = sender?.identity?.badges.map((badge) => badge.type) ?? [];
  const chat: ChatInput = {
    messageId: message.messageId,
    ownerUserId: message.ownerUserId,
    broadcasterUserId: message.broadcasterUserId,
    broadcasterUsername: stripControlCharacters(message.broadcasterUsername),
    sender: {
      userId: sender?.userId ?? '0',
      username: stripControlCharacters(sender?.username ?? '') || 'someone',
      isBroadcaster: isBroadcaster({ userId: sender?.userId ?? '', badgeTypes }, message.broadcasterUserId),
    },
  };
  const receivedAtMs = message.receivedAt && timestampMs(message.receivedAt);
  if (receivedAtMs !== undefined) chat.receivedAtMs = receivedAtMs;
  chat.sentAtMs = messageTimeMs({
    createdAtMs: message.createdAt && timestampMs(message.createdAt),
    receivedAtMs,
    nowMs,
  });
  return chat;
}
