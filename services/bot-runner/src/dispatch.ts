import { commandKey, parseChatCommand, renderResponse, type Random } from '@kickstand/chat-language';
import type { TemplateInputs } from './template-inputs';

/**
 * Command dispatch, pure: a chat line (with the time its viewer sent it), what the bot knows of the
 * channel (running? which commands?) → the command to answer, or the reason to stay silent. The caller keeps
 * the state (read-model.ts), counts the run, renders the reply and publishes it (events.ts).
 */

/** The part of chat.received that dispatch reads. */
export interface ChatLine {
  /** The chat message id: replies point at it and the reply's idempotency key is built from it. */
  messageId: string;
  broadcasterUserId: string;
  broadcasterUsername: string;
  ownerUserId: string;
  senderUsername: string;
  senderUserId: string;
  content: string;
  isFromBot: boolean;
  /**
   * When the viewer sent it (epoch ms): Kick's created_at bounded by the arrival (messageTimeMs).
   * The cooldown is judged on it, not on when the line is processed, so a backlog answers what
   * the viewers could have seen answered.
   */
  sentAtMs: number;
}

/** What dispatch needs to know of a streamer's bot (read-model.ts keeps one per user in memory). */
export interface DispatchBot {
  isRunning: boolean;
  /** The channel the bot runs for; '0' when no Kick account is linked. */
  broadcasterUserId: string;
  /** By commandKey (lowercase name). */
  commands: ReadonlyMap<string, { command: string; response: string }>;
}

export interface DispatchContext {
  /** The owner's bot, undefined when the service knows nothing of it. */
  bot: DispatchBot | undefined;
  /** Commands that belong to the games service (`$game`, `$hero`…): never answered here. */
  builtInNames: ReadonlySet<string>;
  /** When the line this channel last answered for this command (cooldownKey) was sent, in epoch ms. */
  lastAnsweredAtMs(cooldownKey: string): number | undefined;
  cooldownMs: number;
}

export type IgnoreReason =
  | 'from-bot'
  | 'no-message-id'
  | 'no-owner'
  | 'not-a-command'
  | 'bot-not-running'
  | 'built-in'
  | 'unknown-command'
  | 'cooling-down';

export interface Answer {
  kind: 'answer';
  ownerUserId: string;
  /** The lookup key (lowercase). */
  commandKey: string;
  /** The name as the streamer typed it when adding it. */
  command: string;
  /** The response template. */
  response: string;
  args: string[];
  cooldownKey: string;
}

export type Dispatch = { kind: 'ignore'; reason: IgnoreReason } | Answer;

const ignore = (reason: IgnoreReason): Dispatch => ({ kind: 'ignore', reason });

/** Spec §9 ("cooldown 1000 ms"): a command answered in a channel is not answered again there for a second. */
export const commandCooldownMs = 1000;

export const cooldownKeyOf = (broadcasterUserId: string, key: string): string => `${broadcasterUserId}:${key}`;

/**
 * Answer a chat line, or not: never the bot's own lines (no reply loops), only for a running bot
 * of this very channel, never a built-in game command, only a custom command of the owner (in any
 * letter case), and not again within the cooldown of the last answer to that command in the channel,
 * by the times the viewers sent the lines (a line sent before the last answered one is within it).
 */
export function dispatch(line: ChatLine, context: DispatchContext): Dispatch {
  if (line.isFromBot) return ignore('from-bot');
  if (line.messageId === '') return ignore('no-message-id');
  if (line.ownerUserId === '') return ignore('no-owner');
  const parsed = parseChatCommand(line.content);
  if (!parsed) return ignore('not-a-command');
  const { bot } = context;
  if (!bot?.isRunning || bot.broadcasterUserId !== line.broadcasterUserId) return ignore('bot-not-running');
  const key = commandKey(parsed.name);
  if (context.builtInNames.has(key)) return ignore('built-in');
  const found = bot.commands.get(key);
  if (!found) return ignore('unknown-command');
  const cooldownKey = cooldownKeyOf(line.broadcasterUserId, key);
  const lastAt = context.lastAnsweredAtMs(cooldownKey);
  if (lastAt !== undefined && line.sentAtMs - lastAt < context.cooldownMs) return ignore('cooling-down');
  return {
    kind: 'answer',
    ownerUserId: line.ownerUserId,
    commandKey: key,
    command: found.command,
    response: found.response,
    args: parsed.args,
    cooldownKey,
  };
}

/** The reply's text: the response with its variables filled in, at most 500 characters. */
export function renderReply(
  answer: Answer,
  line: ChatLine,
  count: number,
  random: Random,
  inputs?: TemplateInputs,
): string {
  return renderResponse(
    answer.response,
    { user: line.senderUsername, args: answer.args, channel: line.broadcasterUsername, count, ...inputs },
    random,
  );
}

/** The same chat line always gives the same key, so a replayed line cannot make the bot speak twice. */
export const replyIdempotencyKey = (messageId: string): string => `reply:${messageId}`;
