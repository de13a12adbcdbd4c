// Helpers for this package's tests (not exported from the package entry).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { kickstandTopics, type KickstandBus, type KickstandTopics, type TopicMessage } from '@kickstand/platform/bus';
import {
  createFakeClock,
  createTestPlatform,
  eventually,
  listenLocally,
  recordPublished,
  type FakeClock,
  type RecordedBus,
  type TestPlatform,
} from '@kickstand/platform/testing';
import { timestampFromMs } from '@kickstand/proto';
import { createGamesRepository } from '../repository';
import { createGamesService, type GamesService, type GamesServiceOptions } from '../service';
import type { ChatInput } from '../games/outbox';
import type { Random } from '@kickstand/chat-language';

/**
 * A Random for tests: the queued values come out first (each must lie in the asked range), then
 * `otherwise` decides (the lowest value by default).
 */
export function scriptedRandom(
  queued: readonly number[] = [],
  otherwise: (min: number, max: number) => number = (min) => min,
): Random & { queue(...values: number[]): void } {
  const pending = [...queued];
  return {
    intBetween: (min, max) => {
      const next = pending.shift();
      if (next === undefined) return otherwise(min, max);
      if (next < min || next > max) throw new Error(`scripted random value ${next} is outside ${min}..${max}`);
      return next;
    },
    queue: (...values) => {
      pending.push(...values);
    },
  };
}

export const highest = (_min: number, max: number) => max;

export const broadcasterId = '4377088';

let messageCount = 0;

/** A chat command's input; a fresh message id each time unless one is given. */
export function aChat(
  sender: { userId?: string; username?: string; isBroadcaster?: boolean } = {},
  overrides: Partial<ChatInput> = {},
): ChatInput {
  messageCount += 1;
  return {
    messageId: `m-${messageCount}`,
    ownerUserId: 'owner-1',
    broadcasterUserId: broadcasterId,
    broadcasterUsername: 'streamer',
    sender: {
      userId: sender.userId ?? (sender.isBroadcaster ? broadcasterId : `v-${sender.username ?? 'viewer'}`),
      username: sender.username ?? (sender.isBroadcaster ? 'streamer' : 'viewer'),
      isBroadcaster: sender.isBroadcaster ?? false,
    },
    receivedAtMs: Date.UTC(2026, 0, 1),
    ...overrides,
  };
}

export const theBroadcaster = () => aChat({ isBroadcaster: true });
export const viewer = (username: string) => aChat({ username });

/** Epoch ms of a time on the test day, e.g. at('20:05:30'). */
export function at(time: string): number {
  return Date.parse(`2026-01-01T${time}Z`);
}

/** A local stand-in of OpenDota's GET /players/{account_id}. */
export interface OpenDotaStandIn {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startOpenDotaStandIn(): Promise<OpenDotaStandIn> {
  const requests: string[] = [];
  const players: Record<string, { status: number; body: unknown; delayMs?: number }> = {
    '/api/players/70388657': {
      status: 200,
      body: {
        profile: { account_id: 70388657, personaname: 'Dendi' },
        rank_tier: 54,
        leaderboard_rank: 1234,
        computed_mmr: 4370.13,
      },
    },
    '/api/players/111': {
      status: 200,
      body: { profile: { personaname: 'Old' }, rank_tier: 80, mmr_estimate: { estimate: 7000 } },
    },
    '/api/players/222': { status: 200, body: { rank_tier: null, leaderboard_rank: null } },
    '/api/players/333': { status: 200, body: { profile: { personaname: 'Slow' } }, delayMs: 1000 },
    '/api/players/444': { status: 500, body: { error: 'boom' } },
    '/api/players/555': { status: 200, body: { profile: { personaname: 'New' }, rank_tier: 11, computed_mmr: null } },
  };
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const player = players[req.url ?? ''] ?? { status: 404, body: { error: 'Not Found' } };
    const answer = () => {
      res.writeHead(player.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(player.body));
    };
    if (player.delayMs) setTimeout(answer, player.delayMs).unref();
    else answer();
  });
  const listening = await listenLocally(server);
  return { url: `${listening.url}/api`, requests, close: listening.close };
}

// ---------------------------------------------------------------------------------------------
// A games service on the embedded adapters, driven through its doors (bus in, bus out).
// ---------------------------------------------------------------------------------------------

export interface ChannelUnderTest {
  broadcasterUserId: string;
  ownerUserId: string;
}

export interface Speaker {
  userId: string;
  username: string;
  isBroadcaster?: boolean;
}

export const streamerOf = (channel: ChannelUnderTest): Speaker => ({
  userId: channel.broadcasterUserId,
  username: 'streamer',
  isBroadcaster: true,
});

let viewerCount = 0;
/** A viewer with a Kick user id of their own (Kick ids are decimal strings). */
export function aViewer(username: string): Speaker {
  viewerCount += 1;
  return { userId: String(9_000_000 + viewerCount), username };
}

let chatCount = 0;

export interface SayOptions {
  isFromBot?: boolean;
  /** When the webhook received it; 2026-01-01T00:00:00Z unless told. */
  receivedAt?: Date;
  /** Kick's created_at; unset unless told. */
  createdAt?: Date;
}

/** Publishes a chat.received for the channel (as kick-link would) and returns its message id. */
export async function say(
  bus: KickstandBus,
  channel: ChannelUnderTest,
  speaker: Speaker,
  content: string,
  options: SayOptions = {},
): Promise<string> {
  chatCount += 1;
  const messageId = `msg-${chatCount}-${randomUUID()}`;
  await bus.publish('chat.received', channel.broadcasterUserId, {
    eventId: `event-${messageId}`,
    kickMessageId: `kick-${messageId}`,
    messageId,
    broadcasterUserId: channel.broadcasterUserId,
    broadcasterUsername: 'streamer',
    broadcasterChannelSlug: 'streamer',
    ownerUserId: channel.ownerUserId,
    sender: {
      userId: speaker.userId,
      username: speaker.username,
      identity: {
        usernameColor: '#ffffff',
        badges: speaker.isBroadcaster ? [{ type: 'broadcaster', text: 'Broadcaster', count: 0 }] : [],
      },
    },
    content,
    receivedAt: timestampFromMs((options.receivedAt ?? new Date(Date.UTC(2026, 0, 1))).getTime()),
    ...(options.createdAt ? { createdAt: timestampFromMs(options.createdAt.getTime()) } : {}),
    isFromBot: options.isFromBot ?? false,
  });
  return messageId;
}

export async function publishBotStatus(bus: KickstandBus, channel: ChannelUnderTest, isRunning: boolean, atMs: number) {
  await bus.publish('bot.status', channel.ownerUserId, {
    eventId: `bot-${randomUUID()}`,
    occurredAt: timestampFromMs(atMs),
    userId: channel.ownerUserId,
    broadcasterUserId: channel.broadcasterUserId,
    isRunning,
    isConnected: isRunning,
  });
}

let channelCount = 0;
export function aChannel(): ChannelUnderTest {
  channelCount += 1;
  return { broadcasterUserId: String(5_000_000 + channelCount), ownerUserId: `owner-${randomUUID()}` };
}

export interface GamesHarness {
  platform: TestPlatform;
  clock: FakeClock;
  recorded: RecordedBus<KickstandTopics>;
  /** What went out on chat.send for the channel, in order. */
  lines(channel: ChannelUnderTest): Array<TopicMessage<'chat.send'>>;
  /** What went out on game.event for the channel, in order. */
  events(channel: ChannelUnderTest): Array<TopicMessage<'game.event'>>;
  /** A started games service on this harness's platform (same store, same bus, recorded). */
  startService(options?: GamesServiceOptions, wrapBus?: (bus: KickstandBus) => KickstandBus): Promise<GamesService>;
  /**
   * Publishes a chat line and waits until the service answered it (the reply `game:<message id>`);
   * received now by the harness clock unless told.
   */
  sayAndWait(channel: ChannelUnderTest, speaker: Speaker, content: string, options?: SayOptions): Promise<string>;
  /** Marks the channel's bot running, as bot.status would, and waits until the read model has it. */
  startBot(channel: ChannelUnderTest): Promise<void>;
  close(): Promise<void>;
}

export async function createGamesHarness(): Promise<GamesHarness> {
  const clock = createFakeClock(new Date('2026-01-01T20:00:00Z'));
  const platform = await createTestPlatform('games', { clock });
  const recorded = recordPublished(platform.bus, kickstandTopics);
  const started: GamesService[] = [];
  const repo = createGamesRepository(platform.store);
  return {
    platform,
    clock,
    recorded,
    lines: (channel) =>
      recorded
        .publishedWithKeys('chat.send')
        .filter(({ key }) => key === channel.broadcasterUserId)
        .map(({ message }) => message),
    events: (channel) =>
      recorded
        .publishedWithKeys('game.event')
        .filter(({ key }) => key === channel.broadcasterUserId)
        .map(({ message }) => message),
    startService: async (options = {}, wrapBus = (bus) => bus) => {
      const service = createGamesService(
        { ...platform, bus: wrapBus(recorded.bus) },
        { random: scriptedRandom([], highest), tickIntervalMs: 0, instanceId: 'games-1', ...options },
      );
      await service.start();
      started.push(service);
      return service;
    },
    sayAndWait: async (channel, speaker, content, options = {}) => {
      const messageId = await say(platform.bus, channel, speaker, content, { receivedAt: clock.now(), ...options });
      await eventually(() =>
        expect(recorded.published('chat.send').map((line) => line.idempotencyKey)).toContain(`game:${messageId}`),
      );
      return messageId;
    },
    startBot: async (channel) => {
      await publishBotStatus(platform.bus, channel, true, clock.now().getTime());
      await eventually(async () => expect(await repo.isBotRunning(channel.ownerUserId)).toBe(true));
    },
    close: async () => {
      for (const service of started) await service.stop();
      await platform.close();
    },
  };
}
