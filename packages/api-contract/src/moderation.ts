import { z } from 'zod';
import { dataReply, isoDateTime, messageReply } from './common';

// Issue 20 item 3: moderation filters per channel (bot-runner judges chat.received; kick-link acts on Kick).

/** Kick's timeout range (kick-api.md §6.1): 1 minute to 7 days. */
export const moderationTimeoutMinMinutes = 1;
export const moderationTimeoutMaxMinutes = 10080;
/** Kick's ban reason limit (kick-api.md §6.1). */
export const moderationReasonMaxLength = 100;
/** Banned words: how many entries and how long each may be (also bounds the pattern matcher's work). */
export const maxBannedTerms = 100;
export const maxBannedTermLength = 50;
export const maxAllowedDomains = 50;
/** How long a `$permit user` lasts: one link within this time. */
export const permitSeconds = 60;

/** The Kick scopes the filters' actions need (kick-api.md §2): delete a message, ban / time out. */
export const moderationScopes = ['moderation:chat_message:manage', 'moderation:ban'] as const;

export const moderationMessages = {
  saved: 'Moderation filters saved.',
  missingScope: 'Kickstand may not moderate your Kick chat yet. Grant moderation access to switch a filter on.',
  noKickAccount: 'Link your Kick account to switch a filter on.',
  notFound: 'Moderation log entry not found.',
  notUndoable: 'Only a ban or a timeout can be undone.',
  alreadyUndone: 'This action was already undone.',
  undone: 'Unban sent to Kick.',
  timeoutMinutes: `A timeout is a whole number of minutes from ${moderationTimeoutMinMinutes} to ${moderationTimeoutMaxMinutes}.`,
  warningTooLong: 'A warning is at most 200 characters.',
  term: `A banned word or pattern is 1 to ${maxBannedTermLength} characters.`,
  terms: `At most ${maxBannedTerms} banned words or patterns.`,
  domain: 'A domain looks like example.com.',
  domains: `At most ${maxAllowedDomains} allowed domains.`,
} as const;

export const moderationActionKinds = ['delete', 'timeout', 'ban'] as const;
export type ModerationActionKind = (typeof moderationActionKinds)[number];

const int = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

/** What a filter does to a line it catches, and the optional line the bot posts (`{user}` is the sender). */
export const filterActionSchema = z.strictObject({
  kind: z.enum(moderationActionKinds),
  timeoutMinutes: int(moderationTimeoutMinMinutes, moderationTimeoutMaxMinutes, moderationMessages.timeoutMinutes),
  warning: z.string().max(200, moderationMessages.warningTooLong),
});
export type FilterAction = z.infer<typeof filterActionSchema>;

const filterBase = { enabled: z.boolean(), action: filterActionSchema };

export const domainPattern = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}$/;

export const moderationFiltersSchema = z
  .strictObject({
    /** Subscribers are exempt too (moderators, VIPs and the broadcaster always are). */
    exemptSubscribers: z.boolean(),
    links: z.strictObject({
      ...filterBase,
      /** A domain allows itself and its subdomains. */
      allowedDomains: z
        .array(z.string().trim().toLowerCase().regex(domainPattern, moderationMessages.domain))
        .max(maxAllowedDomains, moderationMessages.domains),
    }),
    caps: z.strictObject({
      ...filterBase,
      /** Lines with fewer letters are never judged ("OK", "GG"). */
      minLetters: int(1, 500, 'The minimum length is a whole number from 1 to 500.'),
      percent: int(1, 100, 'The caps percentage is a whole number from 1 to 100.'),
    }),
    words: z.strictObject({
      ...filterBase,
      /** A word or phrase matches whole words; with `*` (any characters) or `?` (one) it is a pattern. */
      terms: z
        .array(z.string().trim().min(1, moderationMessages.term).max(maxBannedTermLength, moderationMessages.term))
        .max(maxBannedTerms, moderationMessages.terms),
    }),
    repeats: z.strictObject({
      ...filterBase,
      /** The Nth line with the same text from the same viewer within the window is caught. */
      count: int(2, 20, 'The repeat count is a whole number from 2 to 20.'),
      windowSeconds: int(5, 3600, 'The window is a whole number of seconds from 5 to 3600.'),
    }),
    length: z.strictObject({
      ...filterBase,
      maxCharacters: int(10, 500, 'The maximum length is a whole number from 10 to 500.'),
    }),
    emotes: z.strictObject({
      ...filterBase,
      maxEmotes: int(1, 100, 'The emote limit is a whole number from 1 to 100.'),
    }),
  })
  .meta({ title: 'ModerationFilters' });
export type ModerationFilters = z.infer<typeof moderationFiltersSchema>;
export const filterNames = ['links', 'caps', 'words', 'repeats', 'length', 'emotes'] as const;
export type FilterName = (typeof filterNames)[number];

const deleteOnly: FilterAction = { kind: 'delete', timeoutMinutes: 1, warning: '' };

/** A channel's filters before the streamer saved any: all off, with sensible settings. */
export const defaultModerationFilters: ModerationFilters = {
  exemptSubscribers: false,
  links: { enabled: false, action: deleteOnly, allowedDomains: [] },
  caps: { enabled: false, action: deleteOnly, minLetters: 10, percent: 70 },
  words: { enabled: false, action: deleteOnly, terms: [] },
  repeats: { enabled: false, action: deleteOnly, count: 3, windowSeconds: 30 },
  length: { enabled: false, action: deleteOnly, maxCharacters: 300 },
  emotes: { enabled: false, action: deleteOnly, maxEmotes: 10 },
};

/** The filters with what Kick has not granted yet: a filter can be switched on only when `missingScopes` is empty. */
export const moderationSettingsSchema = z
  .object({ filters: moderationFiltersSchema, missingScopes: z.array(z.string()) })
  .meta({ title: 'ModerationSettings' });
export type ModerationSettings = z.infer<typeof moderationSettingsSchema>;

export const moderationFiltersReplySchema = dataReply(moderationSettingsSchema);
export const moderationFiltersSavedReplySchema = messageReply(moderationSettingsSchema);

/** What the moderation log shows: the newest entries. */
export const moderationLogLimit = 100;

export const moderationLogStatuses = ['pending', 'done', 'failed', 'undone'] as const;

export const moderationLogEntrySchema = z
  .object({
    id: z.string(),
    at: isoDateTime(),
    filter: z.enum(filterNames),
    action: z.enum(moderationActionKinds),
    timeoutMinutes: z.number().int().nullable(),
    senderUsername: z.string(),
    senderUserId: z.string(),
    /** The caught line (kept so the streamer sees why). */
    content: z.string(),
    status: z.enum(moderationLogStatuses),
    /** Kick's answer when the action failed. */
    error: z.string(),
  })
  .meta({ title: 'ModerationLogEntry' });
export type ModerationLogEntry = z.infer<typeof moderationLogEntrySchema>;

export const moderationLogReplySchema = dataReply(z.array(moderationLogEntrySchema));
export const moderationLogParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const moderationUndoReplySchema = messageReply(moderationLogEntrySchema);
