import { stripControlCharacters } from '@kickstand/platform/chat';
import type { Random } from './random';

/**
 * A command's response is a template: `{user}`, `{touser}`, `{args}`, `{channel}`, `{count}`,
 * `{random:A-B}`, the channel's named counters (`{counter:name}`, `{counter:name+1}`) and its
 * stream (`{uptime}`, `{game}`, `{title}`) are filled in when the command runs (bot-runner), and
 * documented on the dashboard (commands). Pure: randomness comes through the `Random` port, the
 * counters' values (after this run's changes, applied by the runtime) and the stream through the context.
 */

/** Kick refuses chat messages longer than this (kick-api.md: `content` max 500 characters). */
export const chatMessageMaxLength = 500;

/** The bounds of `{random:A-B}`. */
export const randomVariableMax = 1_000_000;

/** What a run of a command knows about the chat line that triggered it. */
export interface ResponseContext {
  /** Who typed the command (their Kick username). */
  user: string;
  /** The words after the command name, as parseChatCommand returns them. */
  args: readonly string[];
  /** The channel's name (the broadcaster's Kick username). */
  channel: string;
  /** How many times this command has run in this channel, this run included. */
  count: number;
  /**
   * The named counters this response reads or changes (by lowercase name), with this run's
   * changes already applied (`counterChanges` says which). A counter missing here shows 0; without
   * the map at all, `{counter:…}` stays as typed.
   */
  counters?: ReadonlyMap<string, number>;
  /** The channel's stream as its livestream events told it; without it `{uptime}`, `{game}`, `{title}` stay as typed. */
  stream?: StreamState;
  /** Now (epoch ms), for `{uptime}`. */
  nowMs?: number;
}

/** What the channel's livestream events said last (kick-api.md §8.9). */
export interface StreamState {
  isLive: boolean;
  /** When the current stream started (epoch ms); null when offline or unknown. */
  startedAtMs: number | null;
  /** The stream's title; '' when unknown. */
  title: string;
  /** The stream's category (Kick's "game"); '' when unknown. */
  game: string;
}

/** Counter names: `{counter:deaths}`. */
export const counterNameMaxLength = 30;
/** The largest change one `{counter:name+N}` makes. */
export const counterStepMax = 1000;

export interface ResponseVariable {
  /** As typed in a response, e.g. `{user}`. */
  name: string;
  description: string;
}

/** The variables a response may use, for the dashboard to document (GET /api/commands/variables). */
export const responseVariables: readonly ResponseVariable[] = [
  { name: '{user}', description: 'The username of the viewer who typed the command.' },
  {
    name: '{touser}',
    description:
      'The first word after the command, without a leading @ (for example $hug @friend gives friend); the viewer who typed the command when nothing follows it.',
  },
  { name: '{args}', description: 'Everything typed after the command; empty when nothing follows it.' },
  { name: '{channel}', description: 'The name of the channel the command was used in.' },
  { name: '{count}', description: 'How many times this command has been used, this time included.' },
  {
    name: '{random:A-B}',
    description: `A random whole number from A to B, both included, for example {random:1-100}. A and B go from 0 to ${randomVariableMax} and A must not be larger than B; otherwise the text stays as typed.`,
  },
  {
    name: '{counter:name}',
    description: `The value of the channel's counter called name (letters, digits, - and _, up to ${counterNameMaxLength} characters, any letter case), for example {counter:deaths}; 0 for a counter never set. Counters are listed, set and reset in the Counters section.`,
  },
  {
    name: '{counter:name+1}',
    description: `Adds 1 to the counter, then shows its new value; {counter:name-1} takes 1 away, and any whole number from 1 to ${counterStepMax} works (for example {counter:deaths+5}). Each chat message changes it once, even if it reaches the bot twice; the other uses of the same counter in the response show the value after the change.`,
  },
  {
    name: '{uptime}',
    description:
      'How long the channel has been live, in whole hours and minutes (2h 5m, 12m; seconds under a minute, 35s), from the start Kick announced; offline when the channel is not live.',
  },
  { name: '{game}', description: 'The category the channel streams in (as last set on Kick); empty when unknown.' },
  { name: '{title}', description: 'The stream title (as last set on Kick); empty when unknown.' },
];

const counterPattern = new RegExp(`^([A-Za-z0-9_-]{1,${counterNameMaxLength}}?)(?:([+-])(\\d{1,4}))?$`);

/** A `{counter:…}` of a response: the counter (lowercase name) and how much this run adds (0: only read). */
export interface CounterUse {
  name: string;
  delta: number;
}

/** `deaths` → read; `deaths+1` → add 1; undefined for a malformed name or a step out of 1..1000. */
export function parseCounterUse(parameter: string): CounterUse | undefined {
  const match = counterPattern.exec(parameter);
  if (!match) return undefined;
  const name = (match[1] ?? '').toLowerCase();
  if (match[2] === undefined) return { name, delta: 0 };
  const step = Number(match[3]);
  if (step < 1 || step > counterStepMax) return undefined;
  return { name, delta: match[2] === '+' ? step : -step };
}

/**
 * What a response does to the channel's counters when it runs: each counter it mentions (in the
 * order of first use) with the sum of its changes (0 for a counter only read). The runtime applies
 * them, once per chat line, and passes the resulting values in `ResponseContext.counters`.
 */
export function counterChanges(template: string): CounterUse[] {
  const byName = new Map<string, number>();
  for (const match of template.matchAll(variablePattern)) {
    if (match[1] !== 'counter' || match[2] === undefined) continue;
    const use = parseCounterUse(match[2]);
    if (use) byName.set(use.name, (byName.get(use.name) ?? 0) + use.delta);
  }
  return [...byName].map(([name, delta]) => ({ name, delta }));
}

/** Whether a response shows the channel's stream (`{uptime}`, `{game}`, `{title}`): the runtime then reads it. */
export function usesStream(template: string): boolean {
  for (const match of template.matchAll(variablePattern)) {
    if (match[2] === undefined && streamVariables.has(match[1] ?? '')) return true;
  }
  return false;
}

const streamVariables = new Set(['uptime', 'game', 'title']);

/** `{uptime}`'s text: `2h 5m`, `12m`, `35s`; whole units, rounded down. */
export function formatUptime(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

// `{name}` or `{name:parameter}`; anything else (and any unknown name) is left exactly as typed.
const variablePattern = /\{([a-z]+)(?::([^{}]*))?\}/g;
const randomRangePattern = /^(\d{1,7})-(\d{1,7})$/;

/**
 * Fills in the variables of a response and cuts the result to Kick's 500-character limit. One
 * pass: text that a variable brings in (what the viewer typed) is never expanded again, and it
 * comes in without control characters (a `{user}` holding a newline cannot start a line of its own).
 */
export function renderResponse(template: string, context: ResponseContext, random: Random): string {
  const rendered = template.replace(variablePattern, (whole: string, name: string, parameter?: string) => {
    const value =
      parameter === undefined ? simpleVariable(name, context) : parameterVariable(name, parameter, context, random);
    return value === undefined ? whole : stripControlCharacters(value);
  });
  return truncateForChat(rendered);
}

function simpleVariable(name: string, context: ResponseContext): string | undefined {
  switch (name) {
    case 'user':
      return context.user;
    case 'touser':
      return toUser(context);
    case 'args':
      return context.args.join(' ');
    case 'channel':
      return context.channel;
    case 'count':
      return String(context.count);
    case 'uptime':
      return context.stream && uptimeOf(context.stream, context.nowMs);
    case 'game':
      return context.stream?.game;
    case 'title':
      return context.stream?.title;
    default:
      return undefined;
  }
}

function uptimeOf(stream: StreamState, nowMs: number | undefined): string | undefined {
  if (!stream.isLive) return 'offline';
  if (stream.startedAtMs === null || nowMs === undefined) return undefined;
  return formatUptime(nowMs - stream.startedAtMs);
}

function parameterVariable(
  name: string,
  parameter: string,
  context: ResponseContext,
  random: Random,
): string | undefined {
  if (name === 'counter') {
    const use = parseCounterUse(parameter);
    if (!use || !context.counters) return undefined;
    return String(context.counters.get(use.name) ?? 0);
  }
  if (name !== 'random') return undefined;
  const range = randomRange(parameter);
  return range ? String(random.intBetween(range.min, range.max)) : undefined;
}

/** `5-10` → { min: 5, max: 10 }; undefined for anything out of 0..1_000_000, reversed or malformed. */
export function randomRange(parameter: string): { min: number; max: number } | undefined {
  const match = randomRangePattern.exec(parameter);
  if (!match) return undefined;
  const min = Number(match[1]);
  const max = Number(match[2]);
  if (max > randomVariableMax || min > max) return undefined;
  return { min, max };
}

function toUser(context: ResponseContext): string {
  const target = (context.args[0] ?? '').replace(/^@/, '');
  return target === '' ? context.user : target;
}

/** Cuts text to at most `maxLength` UTF-16 units without splitting a character made of two. */
export function truncateForChat(text: string, maxLength = chatMessageMaxLength): string {
  if (text.length <= maxLength) return text;
  const lastKept = text.charCodeAt(maxLength - 1);
  const isHighSurrogate = lastKept >= 0xd800 && lastKept <= 0xdbff;
  return text.slice(0, isHighSurrogate ? maxLength - 1 : maxLength);
}
