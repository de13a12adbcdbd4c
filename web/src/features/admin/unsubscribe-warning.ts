import type { SubscribedBot } from './admin-api';

/** The Kick event without which a bot hears nothing. */
const chatEvent = 'chat.message.sent';

/**
 * What an unsubscribe will do, in the confirmation's words: which events go, and, when the chat
 * subscription goes while the user's bot runs, the bot it deafens.
 */
export function unsubscribeWarning({
  username,
  events,
  bot,
}: {
  username: string;
  events: readonly string[];
  bot: SubscribedBot | null;
}): string[] {
  const what =
    events.length === 1
      ? `Remove ${username}'s ${events[0]} subscription?`
      : `Remove all event subscriptions of ${username}?`;
  if (!events.includes(chatEvent) || !bot?.isRunning) return [what];
  return [
    what,
    `This deafens the bot in @${bot.kickUsername}'s chat: it stops answering commands until ${username} reconnects it.`,
  ];
}
