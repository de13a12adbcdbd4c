import { z } from 'zod';
import { dataReply, messageReply } from './common';

// Spec §7: the streamer's bot (bot-runner), and the administrator's per-user switch.

export const botMessages = {
  started: 'Bot started',
  alreadyRunning: 'Bot is already running',
  stopped: 'Bot stopped',
  notRunning: 'Bot is not running',
  enabled: 'Bot enabled successfully',
  disabled: 'Bot disabled successfully',
  notLinked: 'Link your Kick account before starting the bot.',
  disabledByAdmin: 'Your bot has been disabled by an administrator.',
  inactive: 'Your account has been deactivated',
  needsRelink: 'Your Kick account needs to be linked again. Open the Kick Account tab to link it.',
  subscriptionFailed: 'The bot could not connect to your Kick chat. Stop and start it to try again.',
  userNotFound: 'User not found',
  adminNotLinked: 'This user has no linked Kick account',
} as const;

/** The spec's Bot status entity. */
/**
 * Why the bot does not hear its chat, the first that applies; the dashboard words each one and
 * offers the action that fixes it (start, link, relink, reconnect, contact the admin).
 */
export const notListeningReasons = [
  'deactivated',
  'not-linked',
  'needs-relink',
  'disabled-by-admin',
  'stopped',
  'subscription-failed',
  'unsubscribed-by-admin',
  'subscription-lost',
  'connecting',
] as const;
export type NotListeningReason = (typeof notListeningReasons)[number];

export const botStatusSchema = z
  .object({
    /** The streamer wants the bot on (started and not stopped). */
    isRunning: z.boolean(),
    /** The channel's chat reaches the bot. */
    isConnected: z.boolean(),
    /** Same as `status === 'connected'`. */
    connected: z.boolean(),
    status: z.enum(['connected', 'disconnected']),
    /** How many custom commands the streamer has. */
    commands: z.number().int(),
    /** Why the bot does not listen; null while it does. */
    notListeningReason: z.enum(notListeningReasons).nullable(),
    /** The failure's own words ('' without one). */
    error: z.string(),
  })
  .meta({ title: 'BotStatus' });
export type BotStatus = z.infer<typeof botStatusSchema>;

export const botStatusReplySchema = dataReply(botStatusSchema);
export const botChangeReplySchema = messageReply(botStatusSchema);
/** The administrator's switch: the user, the switch, and the bot's status. */
export const botSwitchReplySchema = messageReply(
  botStatusSchema.extend({ userId: z.string(), botEnabled: z.boolean() }),
);
