import { z } from 'zod';
import { dataReply, isoDateTime, messageReply } from './common';

// kick-link's doors for the streamer (link, status, unlink, who posts the replies), the OAuth
// callback Kick sends the browser to, Kick's signed webhook door, and the platform's bot account.

/** The spec's fallback texts (§8), answered when something unexpected fails. */
export const kickLinkMessages = {
  linkStartFailed: 'Failed to start Kick linking',
  statusFailed: 'Failed to check Kick account status',
  unlinkFailed: 'Failed to unlink Kick account',
  unlinked: 'Kick account unlinked successfully',
  noLink: 'No Kick account is linked',
} as const;

export const botAccountMessages = {
  loadFailed: 'Failed to load the bot account',
  linkStartFailed: 'Failed to start linking the bot account',
  unlinked: 'Bot account unlinked',
  unlinkFailed: 'Failed to unlink the bot account',
  senderFailed: 'Failed to check who posts the replies',
} as const;

/** The spec's Kick status response (§3), and whether Kick refused the refresh token. */
export const kickStatusSchema = z
  .object({
    hasKickAccount: z.boolean(),
    kickAccount: z
      .object({
        kickUsername: z.string(),
        kickEmail: z.string(),
        profilePicture: z.string(),
        linkedAt: isoDateTime(),
      })
      .nullable(),
    /** Kick refused the refresh token: the dashboard should offer to link again. */
    needsRelink: z.boolean(),
  })
  .meta({ title: 'KickStatus' });
export type KickStatus = z.infer<typeof kickStatusSchema>;

/** Where the browser goes to authorize at Kick. */
export const authUrlSchema = z.object({ authUrl: z.string() });

/** Who a reply was posted as (kick-api.md §5.1). */
export const senderKinds = ['bot-account', 'streamer-bot', 'streamer-user'] as const;
export type SenderKind = (typeof senderKinds)[number];

/** Who the streamer's replies are posted as, and why. */
export const replySenderSchema = z.object({
  kind: z.enum(senderKinds),
  /** The Kick account the replies appear from (the bot account, or the streamer). */
  kickUsername: z.string(),
  /** Kick refused `type: "bot"` here: replies go out as the streamer until botRetryAt. */
  isFallback: z.boolean(),
  botRefusal: z.string(),
  botRetryAt: isoDateTime().nullable(),
  /** The last failed reply, in the streamer's words, if no reply went out since. */
  lastError: z.string(),
  lastErrorAt: isoDateTime().nullable(),
  /** The platform's bot account, when linked: the streamer should make it a moderator. */
  botAccountUsername: z.string().nullable(),
});
export type ReplySender = z.infer<typeof replySenderSchema>;

/** The platform's bot account (who posts the replies), linked by a super administrator. */
export const botAccountSchema = z.object({
  kickUserId: z.string(),
  kickUsername: z.string(),
  linkedAt: isoDateTime(),
  /** Kick refused its refresh token: the admin has to link it again; replies fall back meanwhile. */
  needsRelink: z.boolean(),
});
export type BotAccount = z.infer<typeof botAccountSchema>;

/** What Kick adds to the dashboard's redirect URI (RFC 6749 §4.1.2); anything else is ignored. */
export const oauthCallbackQuerySchema = z.object({
  code: z.string().min(1).max(4096).optional(),
  state: z.string().min(1).max(512).optional(),
  error: z.string().max(512).optional(),
});

/** Kick's signature headers on a webhook delivery (kick-api.md §8.6). */
export const webhookHeadersSchema = z.object({
  'kick-event-message-id': z.string(),
  'kick-event-subscription-id': z.string(),
  'kick-event-signature': z.string(),
  'kick-event-message-timestamp': z.string(),
  'kick-event-type': z.string(),
  'kick-event-version': z.string(),
});

/**
 * A delivery's body: any JSON. A correctly signed delivery is never refused for its shape (an
 * unusable one becomes a dead letter), so no schema is enforced here.
 */
export const webhookBodySchema = z.unknown();
export const webhookReplySchema = z.object({ success: z.literal(true) });

export const kickStatusReplySchema = dataReply(kickStatusSchema);
export const authUrlReplySchema = dataReply(authUrlSchema);

/** `moderation=true`: also ask Kick for the moderation scopes (the filters' "Grant moderation access"). */
export const kickLinkQuerySchema = z.object({
  moderation: z.enum(['true', 'false'], { error: 'moderation must be true or false' }).optional(),
});
export const unlinkReplySchema = messageReply(z.object({ hasKickAccount: z.literal(false) }));
export const replySenderReplySchema = dataReply(replySenderSchema);
export const botAccountReplySchema = dataReply(z.object({ botAccount: botAccountSchema.nullable() }));
export const botAccountUnlinkReplySchema = messageReply(z.object({ botAccount: z.null() }));
