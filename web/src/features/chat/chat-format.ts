import { autoScrollThresholdPx } from '../../config/constants';
import type { ChatMessage } from '../../lib/socket-events';

/** Within 100 px of the bottom (spec §9): a new line scrolls the log down. */
export function isNearBottom(
  box: { scrollTop: number; scrollHeight: number; clientHeight: number },
  thresholdPx: number = autoScrollThresholdPx,
): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= thresholdPx;
}

/** The same name always gets the same colour: a hue from a string hash, light enough for the dark theme. */
export function usernameColor(username: string): string {
  let hash = 0;
  for (const char of username.toLowerCase()) hash = (hash * 31 + char.codePointAt(0)!) | 0;
  const hue = Math.abs(hash) % 360;
  return `hsl(${hue} 75% 68%)`;
}

export type BadgeKind = 'broadcaster' | 'moderator' | 'subscriber' | 'default';

/** The icon comes from the first badge's type (spec §2). */
export function badgeOf(message: Pick<ChatMessage, 'badges'>): { kind: BadgeKind } {
  const type = message.badges?.[0]?.type;
  const kind: BadgeKind = type === 'broadcaster' || type === 'moderator' || type === 'subscriber' ? type : 'default';
  return { kind };
}

/** A command (text starting with $) is shown in monospace. */
export const isCommandText = (content: string): boolean => content.trimStart().startsWith('$');

export function formatTime(timestamp: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}
