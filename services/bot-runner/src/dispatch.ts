import type { CommandPermission, CommandSettings } from '@kickstand/api-contract';
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
  /** The types of the sender's chat badges (Kick's `sender.identity.badges[].type`), for permissions. */
  senderBadges: readonly string[];
}

/** A command as dispatch needs it. */
export interface DispatchCommand {
  /** The command's own key (commandKey of its name): `{count}` and the cooldowns are the command's, not an alias's. */
  key: string;
  command: string;
  response: string;
  settings: CommandSettings;
}

/** What dispatch needs to know of a streamer's bot (read-model.ts keeps one per user in memory). */
export interface DispatchBot {
  isRunning: boolean;
  /** The channel the bot runs for; '0' when no Kick account is linked. */
  broadcasterUserId: string;
  /** By commandKey of each name a command answers to: its name and its aliases. */
  commands: ReadonlyMap<string, DispatchCommand>;
}

export interface DispatchContext {
  /** The owner's bot, undefined when the service knows nothing of it. */
  bot: DispatchBot | undefined;
  /** Commands that belong to the games service (`$game`, `$hero`…): never answered here. */
  builtInNames: ReadonlySet<string>;
  /** When the line last answered under a cooldown key (cooldownKeyOf, viewerCooldownKeyOf) was sent, in epoch ms. */
  lastAnsweredAtMs(cooldownKey: string): number | undefined;
}

export type IgnoreReason =
  | 'from-bot'
  | 'no-message-id'
  | 'no-owner'
  | 'not-a-command'
  | 'bot-not-running'
  | 'built-in'
  | 'unknown-command'
  | 'disabled'
  | 'not-permitted'
  | 'cooling-down'
  | 'viewer-cooling-down';

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
  /** What the caller records once it answers: each cooldown key with how long it holds. */
  cooldowns: { key: string; ms: number }[];
}

export type Dispatch = { kind: 'ignore'; reason: IgnoreReason } | Answer;

const ignore = (reason: IgnoreReason): Dispatch => ({ kind: 'ignore', reason });

/**
 * Spec §9 ("cooldown 1000 ms"): a command answered in a channel is not answered again there for a
 * second. The default of a command's global cooldown (defaultCommandSettings: 1 s).
 */
export const commandCooldownMs = 1000;

export const cooldownKeyOf = (broadcasterUserId: string, key: string): string => `${broadcasterUserId}:${key}`;
/** One viewer's cooldown for one command in one channel. */
export const viewerCooldownKeyOf = (broadcasterUserId: string, key: string, senderUserId: string): string =>
  `${broadcasterUserId}:${key}:viewer:${senderUserId}`;

/**
 * The sender's rank, from their badges: broadcaster (the badge, or sending from the channel's own
 * account) > moderator > vip > subscriber (`subscriber` or `founder`, Kick's badge of the first
 * subscribers) > everyone. Badge types are an open set: unknown ones rank as everyone.
 */
const ranks: Record<CommandPermission, number> = {
  everyone: 0,
  subscribers: 1,
  vips: 2,
  moderators: 3,
  broadcaster: 4,
};
const badgeRanks: Readonly<Record<string, number>> = {
  subscriber: ranks.subscribers,
  founder: ranks.subscribers,
  vip: ranks.vips,
  moderator: ranks.moderators,
  broadcaster: ranks.broadcaster,
};

export function senderRank(line: Pick<ChatLine, 'senderBadges' | 'senderUserId' | 'broadcasterUserId'>): number {
  if (line.senderUserId === line.broadcasterUserId) return ranks.broadcaster;
  return Math.max(ranks.everyone, ...line.senderBadges.map((type) => badgeRanks[type] ?? ranks.everyone));
}

/** A command for `permission` answers senders of that rank or above: the broadcaster may run every command. */
export const isPermitted = (rank: number, permission: CommandPermission): boolean => rank >= ranks[permission];

/**
 * Answer a chat line, or not: never the bot's own lines (no reply loops), only for a running bot
 * of this very channel, never a built-in game command, only a custom command of the owner (by its
 * name or an alias, in any letter case) that is enabled and that the sender may run (a refused
 * viewer gets no reply: no spam), and not again within the command's cooldowns: its global one in
 * the channel and its per-viewer one, by the times the viewers sent the lines (a line sent before
 * the last answered one is within it). With `modsExempt`, moderators and the broadcaster skip both.
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
  const { settings } = found;
  if (!settings.enabled) return ignore('disabled');
  const rank = senderRank(line);
  if (!isPermitted(rank, settings.permission)) return ignore('not-permitted');
  const global = { key: cooldownKeyOf(line.broadcasterUserId, found.key), ms: settings.globalCooldownSeconds * 1000 };
  const viewer = {
    key: viewerCooldownKeyOf(line.broadcasterUserId, found.key, line.senderUserId),
    ms: settings.userCooldownSeconds * 1000,
  };
  const isExempt = settings.modsExempt && rank >= ranks.moderators;
  const within = ({ key: cooldownKey, ms }: { key: string; ms: number }) => {
    const lastAt = context.lastAnsweredAtMs(cooldownKey);
    return lastAt !== undefined && line.sentAtMs - lastAt < ms;
  };
  if (!isExempt && within(global)) return ignore('cooling-down');
  if (!isExempt && within(viewer)) return ignore('viewer-cooling-down');
  return {
    kind: 'answer',
    ownerUserId: line.ownerUserId,
    commandKey: found.key,
    command: found.command,
    response: found.response,
    args: parsed.args,
    // an exempt answer still starts the cooldowns: the chat saw it, so the viewers wait as after any
    cooldowns: [global, viewer].filter(({ ms }) => ms > 0),
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
