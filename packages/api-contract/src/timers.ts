import { z } from 'zod';
import { dataReply, isoDateTime, messageReply } from './common';
import { maxResponseLength } from './commands';

// Issue 19 item 8: timers, messages the bot posts every N minutes while the channel is live (bot-runner).

/** Like Nightbot's shortest interval: more often reads as spam and Kick's chat rate limits bite. */
export const timerIntervalMinMinutes = 5;
/** One day. */
export const timerIntervalMaxMinutes = 1440;
/** Nightbot's largest "chat lines" setting is 100; a few more leave room for busy channels. */
export const timerMinChatLinesMax = 1000;
export const maxTimersPerUser = 50;

export const timerMessages = {
  messageRequired: 'Timer message is required.',
  messageTooLong: `Timer message must be ${maxResponseLength} characters or less`,
  interval: `The interval is a whole number of minutes from ${timerIntervalMinMinutes} to ${timerIntervalMaxMinutes}.`,
  minChatLines: `The minimum chat lines is a whole number from 0 to ${timerMinChatLinesMax}.`,
  enabled: 'enabled must be true or false',
  limitReached: `You can have at most ${maxTimersPerUser} timers. Delete one to add another.`,
  notFound: 'Timer not found.',
  added: 'Timer added.',
  updated: 'Timer saved.',
  enabledNow: 'Timer enabled.',
  disabledNow: 'Timer disabled.',
  deleted: 'Timer deleted.',
} as const;

export const timerMessageSchema = z
  .string({ error: timerMessages.messageRequired })
  .refine((text) => text.trim() !== '', timerMessages.messageRequired)
  .refine((text) => text.length <= maxResponseLength, timerMessages.messageTooLong);
export const timerIntervalSchema = z
  .number({ error: timerMessages.interval })
  .int(timerMessages.interval)
  .min(timerIntervalMinMinutes, timerMessages.interval)
  .max(timerIntervalMaxMinutes, timerMessages.interval);
export const timerMinChatLinesSchema = z
  .number({ error: timerMessages.minChatLines })
  .int(timerMessages.minChatLines)
  .min(0, timerMessages.minChatLines)
  .max(timerMinChatLinesMax, timerMessages.minChatLines);

/** Adding or saving a timer: everything but `enabled` is required (a new timer is enabled unless told). */
export const timerBodySchema = z
  .strictObject({
    message: timerMessageSchema,
    intervalMinutes: timerIntervalSchema,
    minChatLines: timerMinChatLinesSchema,
    enabled: z.boolean({ error: timerMessages.enabled }).optional(),
  })
  .meta({ title: 'TimerBody' });
export type TimerBody = z.infer<typeof timerBodySchema>;

export const timerToggleBodySchema = z
  .strictObject({ enabled: z.boolean({ error: timerMessages.enabled }) })
  .meta({ title: 'TimerToggleBody' });
export type TimerToggleBody = z.infer<typeof timerToggleBodySchema>;

export const timerParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** Timers post in the order they were added (`createdAt`), one after another. */
export const timerSchema = z
  .object({
    id: z.string(),
    message: z.string(),
    intervalMinutes: z.number().int(),
    minChatLines: z.number().int(),
    enabled: z.boolean(),
    createdAt: isoDateTime(),
    /** When it last posted; null before its first post. */
    lastPostedAt: isoDateTime().nullable(),
  })
  .meta({ title: 'Timer' });
export type Timer = z.infer<typeof timerSchema>;

export const timerListReplySchema = dataReply(z.array(timerSchema));
export const timerChangeReplySchema = messageReply(timerSchema);
export const timerDeleteReplySchema = messageReply(z.object({ id: z.string() }));
