import { z } from 'zod';
import { dataReply, isoDateTime, messageReply } from './common';

// Issue 19 item 7: the channel's named counters (`{counter:deaths}`), kept by bot-runner.

/** Same rule as `{counter:name}` in a response (chat-language's parseCounterUse). */
export const counterNamePattern = /^[A-Za-z0-9_-]{1,30}$/;
/** A counter's value stays within these bounds when set from the dashboard. */
export const counterValueMax = 1_000_000_000;
/** Keeps one streamer's list bounded (counters created by responses count too). */
export const maxCountersPerUser = 200;

export const counterMessages = {
  invalidName: 'A counter name is 1 to 30 letters, digits, hyphens or underscores.',
  invalidValue: `A counter's value is a whole number from -${counterValueMax} to ${counterValueMax}.`,
  notFound: (name: string) => `Counter "${name}" not found.`,
  limitReached: `You can have at most ${maxCountersPerUser} counters. Delete one to add another.`,
  set: (name: string, value: number) => `Counter "${name}" set to ${value}.`,
  reset: (name: string) => `Counter "${name}" reset to 0.`,
  deleted: (name: string) => `Counter "${name}" deleted.`,
} as const;

export const counterParamsSchema = z.object({
  name: z.string().regex(counterNamePattern, counterMessages.invalidName),
});

export const setCounterBodySchema = z
  .strictObject({
    value: z
      .number({ error: counterMessages.invalidValue })
      .int(counterMessages.invalidValue)
      .min(-counterValueMax, counterMessages.invalidValue)
      .max(counterValueMax, counterMessages.invalidValue),
  })
  .meta({ title: 'SetCounterBody' });
export type SetCounterBody = z.infer<typeof setCounterBodySchema>;

/** Names are kept in lowercase: `{counter:Deaths}` and `{counter:deaths}` are one counter. */
export const counterSchema = z
  .object({ name: z.string(), value: z.number().int(), updatedAt: isoDateTime() })
  .meta({ title: 'Counter' });
export type Counter = z.infer<typeof counterSchema>;

export const counterListReplySchema = dataReply(z.array(counterSchema));
export const counterChangeReplySchema = messageReply(counterSchema);
export const counterDeleteReplySchema = messageReply(z.object({ name: z.string() }));
