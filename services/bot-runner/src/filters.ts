import type { FilterAction, FilterName, ModerationFilters } from '@kickstand/api-contract';
import { filterNames } from '@kickstand/api-contract';
import { senderRank, type ChatLine } from './dispatch';

/**
 * Moderation filters, pure: a chat line and the channel's filters → the filter that catches it
 * (with its action), or nothing. The caller keeps the memory the rules read (permits, each
 * viewer's recent lines: moderation.ts) and acts (events.ts).
 */

/** Rank of a VIP (dispatch.ts senderRank): VIPs, moderators and the broadcaster are never filtered. */
const vipRank = 2;
const subscriberRank = 1;

export function isExempt(
  line: Pick<ChatLine, 'senderBadges' | 'senderUserId' | 'broadcasterUserId'>,
  filters: ModerationFilters,
): boolean {
  const rank = senderRank(line);
  return rank >= vipRank || (filters.exemptSubscribers && rank >= subscriberRank);
}

// ---- links ---------------------------------------------------------------------------------

/**
 * The hosts a line links to. Each whitespace-separated word is looked at on its own (no regex
 * over the whole line): an optional scheme, then a host of dot-separated labels ending in a
 * 2–24 letter top-level domain, then optionally a port, path, query or fragment. "e.g." or
 * "3.14" are not links; "kick.com/abc", "https://x.y.example.org" are.
 */
export function linkHosts(content: string): string[] {
  const hosts: string[] = [];
  for (const rawWord of content.split(/\s+/)) {
    // trailing punctuation of a sentence is not part of the link
    const word = rawWord.toLowerCase().replace(/^[("'<]+|[)"'>.,!?;:]+$/g, '');
    const withoutScheme = word.replace(/^[a-z][a-z0-9+.-]{0,15}:\/\//, '');
    const host = withoutScheme.split(/[/?#:]/, 1)[0] ?? '';
    if (isHost(host)) hosts.push(host.replace(/^www\./, ''));
  }
  return hosts;
}

function isHost(host: string): boolean {
  const labels = host.split('.');
  if (labels.length < 2 || host.length > 253) return false;
  const tld = labels[labels.length - 1] ?? '';
  if (!/^[a-z]{2,24}$/.test(tld)) return false;
  return labels.slice(0, -1).every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
}

/** A domain allows itself and its subdomains: `kick.com` allows `clips.kick.com`, not `notkick.com`. */
export const isAllowedHost = (host: string, allowedDomains: readonly string[]): boolean =>
  allowedDomains.some((domain) => host === domain || host.endsWith(`.${domain}`));

/** Hosts the allow list does not cover. */
export const forbiddenLinks = (content: string, allowedDomains: readonly string[]): string[] =>
  linkHosts(content).filter((host) => !isAllowedHost(host, allowedDomains));

/** `$permit <user>` (a leading `@` is dropped): the username, lowercase, or undefined when the line is not one. */
export function permitTarget(content: string): string | undefined {
  const match = /^\$permit\s+@?([A-Za-z0-9_]{1,25})\s*$/i.exec(content.trim());
  return match?.[1]?.toLowerCase();
}

// ---- caps, length, emotes --------------------------------------------------------------------

const emotePattern = /\[emote:\d+:[^\]\s]{0,100}\]/g;

/** Kick writes emotes into the text as `[emote:<id>:<name>]`. */
export const emoteCount = (content: string): number => content.match(emotePattern)?.length ?? 0;

/** The caps share of the letters (emote codes left out), when the line has at least `minLetters` letters. */
export function isShouting(content: string, minLetters: number, percent: number): boolean {
  const text = content.replace(emotePattern, ' ');
  let letters = 0;
  let upper = 0;
  for (const char of text) {
    const lower = char.toLowerCase();
    const upperCase = char.toUpperCase();
    if (lower === upperCase) continue; // not a cased letter: digits, punctuation, CJK…
    letters += 1;
    if (char === upperCase) upper += 1;
  }
  return letters >= minLetters && upper * 100 >= percent * letters;
}

// ---- banned words and patterns ---------------------------------------------------------------

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}_']+/gu) ?? [];

/**
 * `*` (any run of characters, spaces included) and `?` (one character), matched against the whole
 * line with the classic two-pointer algorithm: it backtracks only to the last `*`, so it takes at
 * most O(text × pattern) steps (500 × 50 here), never the exponential time a user-written regular
 * expression can take (no regex is built from a streamer's input). A pattern may match anywhere in
 * the line, as if it began and ended with `*`.
 */
export function wildcardMatches(pattern: string, text: string): boolean {
  const p = `*${pattern.toLowerCase()}*`;
  const t = text.toLowerCase();
  let pi = 0;
  let ti = 0;
  let starAt = -1;
  let resumeAt = 0;
  while (ti < t.length) {
    if (pi < p.length && (p[pi] === '?' || (p[pi] !== '*' && p[pi] === t[ti]))) {
      pi += 1;
      ti += 1;
    } else if (pi < p.length && p[pi] === '*') {
      starAt = pi;
      resumeAt = ti;
      pi += 1;
    } else if (starAt >= 0) {
      pi = starAt + 1;
      resumeAt += 1;
      ti = resumeAt;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') pi += 1;
  return pi === p.length;
}

/** Without `*` or `?` a term is a word or phrase: it matches whole words in order, in any letter case. */
export function matchesTerm(term: string, content: string): boolean {
  if (/[*?]/.test(term)) return wildcardMatches(term, content);
  const needle = wordsOf(term);
  if (needle.length === 0) return false;
  const words = wordsOf(content);
  for (let start = 0; start + needle.length <= words.length; start += 1) {
    if (needle.every((word, index) => words[start + index] === word)) return true;
  }
  return false;
}

// ---- repeats ---------------------------------------------------------------------------------

/** Two lines are "the same" in any letter case and spacing. */
export const repeatKey = (content: string): string => content.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Whether this line is the `count`th (or later) with the same text from the viewer within the
 * window: `earlierSameAtMs` are the times of the viewer's earlier lines with the same text.
 */
export const isRepeat = (
  earlierSameAtMs: readonly number[],
  atMs: number,
  count: number,
  windowSeconds: number,
): boolean => earlierSameAtMs.filter((at) => atMs - at < windowSeconds * 1000 && at <= atMs).length + 1 >= count;

// ---- the verdict -----------------------------------------------------------------------------

export interface JudgeMemory {
  /** Whether the sender holds a permit for one link (taken by the caller when the link passes on it). */
  hasPermit: boolean;
  /** The times of the sender's earlier lines with the same text (repeatKey). */
  earlierSameAtMs: readonly number[];
}

/** With every filter off nothing can be caught: the line needs no further look. */
export const anyFilterOn = (filters: ModerationFilters): boolean => filterNames.some((name) => filters[name].enabled);

export type Verdict =
  { kind: 'pass'; usedPermit: boolean } | { kind: 'caught'; filter: FilterName; action: FilterAction; reason: string };

/**
 * The first filter that catches the line, in a fixed order (words, links, repeats, length, caps,
 * emotes: the worst offence first, so the log names it). Exempt senders pass every filter; a link
 * with a permit passes once (usedPermit: the caller takes the permit).
 */
export function judge(line: ChatLine, filters: ModerationFilters, memory: JudgeMemory): Verdict {
  if (isExempt(line, filters)) return { kind: 'pass', usedPermit: false };
  const { content } = line;
  const caught = (filter: FilterName, reason: string): Verdict => ({
    kind: 'caught',
    filter,
    action: filters[filter].action,
    reason,
  });
  if (filters.words.enabled) {
    const term = filters.words.terms.find((candidate) => matchesTerm(candidate, content));
    if (term !== undefined) return caught('words', 'banned word');
  }
  let usedPermit = false;
  if (filters.links.enabled && forbiddenLinks(content, filters.links.allowedDomains).length > 0) {
    if (!memory.hasPermit) return caught('links', 'link');
    usedPermit = true;
  }
  if (
    filters.repeats.enabled &&
    isRepeat(memory.earlierSameAtMs, line.sentAtMs, filters.repeats.count, filters.repeats.windowSeconds)
  )
    return caught('repeats', 'repeated message');
  if (filters.length.enabled && [...content].length > filters.length.maxCharacters)
    return caught('length', 'message too long');
  if (filters.caps.enabled && isShouting(content, filters.caps.minLetters, filters.caps.percent))
    return caught('caps', 'excessive caps');
  if (filters.emotes.enabled && emoteCount(content) > filters.emotes.maxEmotes) return caught('emotes', 'emote spam');
  return { kind: 'pass', usedPermit };
}

/** Who may give a permit: moderators and the broadcaster. */
export const mayPermit = (line: Pick<ChatLine, 'senderBadges' | 'senderUserId' | 'broadcasterUserId'>): boolean =>
  senderRank(line) >= 3;

/** The same chat line always gives the same key: a replayed line is acted on once. */
export const moderationIdempotencyKey = (messageId: string): string => `moderation:${messageId}`;

/** The warning line, with `{user}` as the sender's name. */
export const warningText = (warning: string, senderUsername: string): string =>
  warning.replaceAll('{user}', senderUsername).slice(0, 500);
