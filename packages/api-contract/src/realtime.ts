import { z } from 'zod';
import { dataReply, isoDateTime } from './common';

// GET /api/realtime/chat: the live chat's history over HTTP, the same as a socket's `chat-history`
// (packages/platform/src/socket-events.ts describes the socket events).

/** One line of the live chat (the spec's Chat message entity). */
export const chatMessageSchema = z.object({
  id: z.string(),
  username: z.string(),
  /** Raw text; emotes appear as `[emote:<id>:<name>]` tokens. */
  content: z.string(),
  timestamp: isoDateTime(),
  replyTo: z.string().nullable(),
  isModerator: z.boolean(),
  isSubscriber: z.boolean(),
  badges: z.array(z.object({ type: z.string() })),
  isBot: z.boolean(),
});

const eventBase = { id: z.string(), timestamp: isoDateTime(), username: z.string().nullable() };

/** Something that happened in the channel (gift, redemption, follow, subscription): an event line. */
export const channelEventSchema = z.discriminatedUnion('kind', [
  z.object({
    ...eventBase,
    kind: z.literal('kicks-gifted'),
    amount: z.number(),
    giftName: z.string(),
    message: z.string(),
  }),
  z.object({
    ...eventBase,
    kind: z.literal('reward-redeemed'),
    reward: z.string(),
    cost: z.number().nullable(),
    input: z.string(),
    status: z.string(),
  }),
  z.object({ ...eventBase, kind: z.literal('followed') }),
  z.object({ ...eventBase, kind: z.enum(['subscribed', 'resubscribed']), months: z.number().nullable() }),
  z.object({ ...eventBase, kind: z.literal('subs-gifted'), count: z.number() }),
]);

/** The last lines of the user's channel (at most 100 of both kinds together), each list oldest first. */
export const chatHistorySchema = z.object({
  messages: z.array(chatMessageSchema),
  events: z.array(channelEventSchema),
});
export type ChatHistory = z.infer<typeof chatHistorySchema>;

export const chatHistoryReplySchema = dataReply(chatHistorySchema);
