import { stripControlCharacters } from '@kickstand/platform/chat';
import type { Random } from './random';

/**
 * A command's response is a template: `{user}`, `{touser}`, `{args}`, `{channel}`, `{count}` and
 * `{random:A-B}` are filled in when the command runs (bot-runner), and documented on the
 * dashboard (commands). Pure: randomness comes through the `Random` port.
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
}

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
];

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
    const value = parameter === undefined ? simpleVariable(name, context) : parameterVariable(name, parameter, random);
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
    default:
      return undefined;
  }
}

function parameterVariable(name: string, parameter: string, random: Random): string | undefined {
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
