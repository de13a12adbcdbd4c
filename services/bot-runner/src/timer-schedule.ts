/**
 * When a timer posts, pure. A channel's enabled timers take turns in the order they were added
 * (the rotation): the next one after the timer that posted last posts once its interval has
 * passed since the channel's last timer post (or since the stream started, whichever is later)
 * and at least its minimum of chat lines arrived since that post. One post per decision: the
 * others wait for their turn, so several timers never burst into chat together. Nothing is posted
 * while the channel is offline or its bot does not run for it.
 */

export interface ScheduledTimer {
  id: string;
  createdAtMs: number;
  message: string;
  intervalMinutes: number;
  minChatLines: number;
}

export interface ChannelSchedule {
  broadcasterUserId: string;
  isLive: boolean;
  startedAtMs: number | null;
  lastPostAtMs: number | null;
  lines: number;
  lastTimer: { createdAtMs: number; id: string } | null;
}

export interface TimerBot {
  isRunning: boolean;
  broadcasterUserId: string;
}

export type TimerWaitReason = 'not-live' | 'bot-not-running' | 'no-timers' | 'interval' | 'chat-quiet';

export type TimerDecision = { kind: 'post'; timer: ScheduledTimer } | { kind: 'wait'; reason: TimerWaitReason };

const isAfter = (a: { createdAtMs: number; id: string }, b: { createdAtMs: number; id: string }): boolean =>
  a.createdAtMs > b.createdAtMs || (a.createdAtMs === b.createdAtMs && a.id > b.id);

/** The rotation's order: by when added, then id. */
export const byRotation = (a: ScheduledTimer, b: ScheduledTimer): number =>
  a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The timer whose turn it is: the first after the last one that posted, else the first (wrapping). */
export function nextInRotation(
  enabledTimers: readonly ScheduledTimer[],
  lastTimer: ChannelSchedule['lastTimer'],
): ScheduledTimer | undefined {
  const ordered = [...enabledTimers].sort(byRotation);
  if (!lastTimer) return ordered[0];
  return ordered.find((timer) => isAfter(timer, lastTimer)) ?? ordered[0];
}

export function decideTimerPost(input: {
  channel: ChannelSchedule;
  bot: TimerBot | undefined;
  enabledTimers: readonly ScheduledTimer[];
  nowMs: number;
  /** 60 000 in production; the sandbox's e2e runs may shorten it (see the README). */
  minuteMs: number;
}): TimerDecision {
  const { channel, bot } = input;
  if (!channel.isLive) return { kind: 'wait', reason: 'not-live' };
  if (!bot?.isRunning || bot.broadcasterUserId !== channel.broadcasterUserId) {
    return { kind: 'wait', reason: 'bot-not-running' };
  }
  const timer = nextInRotation(input.enabledTimers, channel.lastTimer);
  if (!timer) return { kind: 'wait', reason: 'no-timers' };
  const sinceMs = Math.max(channel.lastPostAtMs ?? 0, channel.startedAtMs ?? 0);
  if (input.nowMs - sinceMs < timer.intervalMinutes * input.minuteMs) return { kind: 'wait', reason: 'interval' };
  if (channel.lines < timer.minChatLines) return { kind: 'wait', reason: 'chat-quiet' };
  return { kind: 'post', timer };
}

/** The same decided post always gives the same key (its outbox entry's id), so kick-link posts it once. */
export const timerIdempotencyKey = (postId: string): string => `timer:${postId}`;
