import { chatLogLimit } from '../../config/constants';
import type { ChannelEvent, ChatMessage } from '../../lib/socket-events';

/** One line of the live chat: a chat message, or an event line (a gift, a redemption, a follow…). */
export type ChatLogLine = { kind: 'message'; message: ChatMessage } | { kind: 'event'; event: ChannelEvent };

export const lineId = (line: ChatLogLine): string => (line.kind === 'message' ? line.message.id : line.event.id);

function time(timestamp: string): number {
  const ms = new Date(timestamp).getTime();
  return Number.isNaN(ms) ? 0 : ms;
}

/**
 * Messages and event lines as one log: the messages keep their order, each event goes after the
 * messages that are not newer than it; the newest 100 lines of both together (spec §9).
 */
export function mergeChatLines(
  messages: readonly ChatMessage[],
  events: readonly ChannelEvent[],
  limit: number = chatLogLimit,
): ChatLogLine[] {
  const pending = [...events].sort((a, b) => time(a.timestamp) - time(b.timestamp));
  const lines: ChatLogLine[] = [];
  for (const message of messages) {
    while (pending.length > 0 && time(pending[0]?.timestamp ?? '') < time(message.timestamp)) {
      const event = pending.shift();
      if (event) lines.push({ kind: 'event', event });
    }
    lines.push({ kind: 'message', message });
  }
  for (const event of pending) lines.push({ kind: 'event', event });
  return lines.length > limit ? lines.slice(lines.length - limit) : lines;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** An event line's text, e.g. `🎁 generous gifted 100 KICKs: gg` or `🎯 viewer_c redeemed Song request (500): play`. */
export function channelEventText(event: ChannelEvent): string {
  const who = event.username ?? 'Anonymous';
  switch (event.kind) {
    case 'kicks-gifted': {
      const gift = `🎁 ${who} gifted ${plural(event.amount, 'KICK', 'KICKs')}`;
      return event.message ? `${gift}: ${event.message}` : gift;
    }
    case 'reward-redeemed': {
      const cost = event.cost === null ? '' : ` (${event.cost})`;
      const redeemed = `🎯 ${who} redeemed ${event.reward || 'a reward'}${cost}`;
      const withInput = event.input ? `${redeemed}: ${event.input}` : redeemed;
      // Kick tells again when the streamer accepts or rejects it
      return event.status && event.status !== 'pending' ? `${withInput} — ${event.status}` : withInput;
    }
    case 'followed':
      return `❤️ ${who} followed`;
    case 'subscribed':
      return `⭐ ${who} subscribed`;
    case 'resubscribed':
      return event.months === null
        ? `⭐ ${who} resubscribed`
        : `⭐ ${who} resubscribed (${plural(event.months, 'month', 'months')})`;
    case 'subs-gifted':
      return `🎁 ${who} gifted ${plural(event.count, 'sub', 'subs')}`;
  }
}
