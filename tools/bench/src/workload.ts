/**
 * What the generator sends, decided before a phase starts (so the send loop only writes bytes):
 * evenly spaced messages at the phase's rate, each to a channel drawn at random, a set share of
 * them `$` commands.
 *
 * The bot answers a command at most once a second per channel (spec §9 cooldown). Each channel has
 * several commands, and a command message uses the channel's least recently used one; a command
 * whose previous use in that channel lies less than `cooldownGuardMs` back is still sent but
 * counted as "expected to be ignored (cooldown)" and left out of the reply figures.
 */
import { seededRandom } from '@kickstand/platform/random';

export interface BenchChannel {
  /** The Kickstand user who linked the channel. */
  userId: string;
  username: string;
  kickUserId: number;
  kickUsername: string;
  /** The channel's chat.message.sent subscription at Kick (the Kick-Event-Subscription-Id header). */
  subscriptionId: string;
  /** Custom command names (without `$`). */
  commands: string[];
}

export interface PlannedMessage {
  /** Milliseconds after the phase starts. */
  atMs: number;
  channel: number;
  senderUserId: number;
  senderUsername: string;
  content: string;
  isCommand: boolean;
  /** A command outside the cooldown: the bot must answer it exactly once. */
  expectsReply: boolean;
  /** Sent during the warm-up: load, but not counted. */
  isWarmup: boolean;
}

export interface PhasePlanOptions {
  channels: readonly BenchChannel[];
  /** Messages per second. */
  rate: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** 0…1. */
  commandShare: number;
  seed: number;
  cooldownGuardMs?: number;
  viewers?: number;
}

const chatter = [
  'hello chat',
  'what a play',
  'gg',
  'that was close',
  'anyone know the song?',
  'first time here, love the stream',
  'LUL',
  'how long have you been live?',
  'let us gooo',
  'no way',
];

export const viewerIdBase = 800_000_000;

export function planPhase(options: PhasePlanOptions): PlannedMessage[] {
  const { channels, rate, durationSeconds, warmupSeconds, commandShare } = options;
  if (channels.length === 0) throw new Error('no channels to send to');
  const cooldownGuardMs = options.cooldownGuardMs ?? 1500;
  const viewers = options.viewers ?? 10_000;
  const random = seededRandom(options.seed);
  const total = Math.round(rate * (durationSeconds + warmupSeconds));
  const warmupCount = Math.round(rate * warmupSeconds);
  // per channel, when each of its commands was last used (ms into the phase)
  const lastUse = channels.map((channel) => channel.commands.map(() => Number.NEGATIVE_INFINITY));
  const planned: PlannedMessage[] = new Array(total);
  for (let i = 0; i < total; i++) {
    const atMs = (i * 1000) / rate;
    const channel = Math.floor(random() * channels.length);
    const viewer = Math.floor(random() * viewers);
    const senderUsername = `viewer_${viewer}`;
    const uses = lastUse[channel] as number[];
    const isCommand = uses.length > 0 && random() < commandShare;
    let content: string;
    let expectsReply = false;
    if (isCommand) {
      let oldest = 0;
      for (let k = 1; k < uses.length; k++) if ((uses[k] as number) < (uses[oldest] as number)) oldest = k;
      const name = (channels[channel] as BenchChannel).commands[oldest] as string;
      expectsReply = atMs - (uses[oldest] as number) >= cooldownGuardMs;
      // only answered uses start a cooldown
      if (expectsReply) uses[oldest] = atMs;
      content = i % 2 === 0 ? `$${name}` : `$${name} @viewer_${Math.floor(random() * viewers)}`;
    } else {
      content = `${chatter[i % chatter.length]} ${i}`;
    }
    planned[i] = {
      atMs,
      channel,
      senderUserId: viewerIdBase + viewer,
      senderUsername,
      content,
      isCommand,
      expectsReply,
      isWarmup: i < warmupCount,
    };
  }
  return planned;
}

/**
 * What the send loop and the report need of a phase once its deliveries are signed, in typed
 * arrays: the planned messages themselves (their strings) are not kept through the phase.
 */
export interface PhaseSchedule {
  count: number;
  /** Milliseconds after the phase starts, per message. */
  atMs: Float64Array;
  channel: Uint32Array;
  /** `scheduleFlags` per message. */
  flags: Uint8Array;
  /** The first message after the warm-up (`count` when all are warm-up). */
  firstMeasured: number;
}

export const scheduleFlags = { isCommand: 1, expectsReply: 2, isWarmup: 4 } as const;

export function compactSchedule(plan: readonly PlannedMessage[]): PhaseSchedule {
  const count = plan.length;
  const schedule: PhaseSchedule = {
    count,
    atMs: new Float64Array(count),
    channel: new Uint32Array(count),
    flags: new Uint8Array(count),
    firstMeasured: count,
  };
  plan.forEach((message, i) => {
    schedule.atMs[i] = message.atMs;
    schedule.channel[i] = message.channel;
    schedule.flags[i] =
      (message.isCommand ? scheduleFlags.isCommand : 0) |
      (message.expectsReply ? scheduleFlags.expectsReply : 0) |
      (message.isWarmup ? scheduleFlags.isWarmup : 0);
    if (!message.isWarmup && schedule.firstMeasured === count) schedule.firstMeasured = i;
  });
  return schedule;
}
