import { z } from 'zod';
import { dataReply, messageReply, userIdParamsSchema } from './common';

// The admin webhook calls (spec §7): a user's Kick event subscriptions (kick-link).

/** Spec §9: the subscribable events (8); the default selected one is chat.message.sent. */
export const subscribableEvents = [
  'chat.message.sent',
  'channel.followed',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
  'channel.subscription.new',
  'livestream.status.updated',
  'livestream.metadata.updated',
  'moderation.banned',
] as const;
export type SubscribableEvent = (typeof subscribableEvents)[number];

export const isSubscribableEvent = (name: string): name is SubscribableEvent =>
  (subscribableEvents as readonly string[]).includes(name);

/** The spec's admin texts (§8): successes, and the failures used when Kick gives no reason. */
export const webhookMessages = {
  subscribed: 'Subscribed successfully',
  subscribedSelected: 'Subscribed to selected events',
  subscribedAll: 'Subscribed to all events',
  unsubscribedAll: 'Unsubscribed from all events',
  unsubscribed: 'Unsubscribed successfully',
  loadFailed: 'Failed to load subscriptions',
  subscribeFailed: 'Failed to subscribe',
  subscribeSelectedFailed: 'Failed to subscribe selected events',
  subscribeAllFailed: 'Failed to subscribe all',
  unsubscribeAllFailed: 'Failed to unsubscribe all',
  unsubscribeFailed: 'Failed to unsubscribe',
  noLinkedAccount: 'This user has no linked Kick account',
  userNotFound: 'User not found',
  subscriptionNotFound: 'Subscription not found',
} as const;

const eventSchema = z
  .string({ error: 'event is required' })
  .refine(isSubscribableEvent, { message: `event must be one of ${subscribableEvents.join(', ')}` });

export const subscribeBodySchema = z.object({ event: eventSchema }).meta({ title: 'SubscribeBody' });
export type SubscribeBody = z.infer<typeof subscribeBodySchema>;
export const subscribeBatchBodySchema = z
  .object({
    events: z.array(eventSchema, { error: 'events must be a list of events' }).min(1, 'Choose at least one event'),
  })
  .meta({ title: 'SubscribeBatchBody' });
export type SubscribeBatchBody = z.infer<typeof subscribeBatchBodySchema>;

export const subscriptionParamsSchema = userIdParamsSchema.extend({
  subscriptionId: z.string().min(1).max(100),
});

/** The spec's Webhook subscription (§3): status `active` (or another, the spec says). */
export const subscriptionSchema = z
  .object({ id: z.string(), event: z.string(), status: z.string() })
  .meta({ title: 'Subscription' });
export type Subscription = z.infer<typeof subscriptionSchema>;

/** The user's bot as the webhook list reports it, so an unsubscribe can name the bot it deafens. */
export const subscribedBotSchema = z.object({ isRunning: z.boolean(), kickUsername: z.string() });
export type SubscribedBot = z.infer<typeof subscribedBotSchema>;
export const subscriptionListSchema = z.object({
  subscriptions: z.array(subscriptionSchema),
  /** null when the user has no bot kick-link knows of. */
  bot: subscribedBotSchema.nullable(),
});
export type SubscriptionList = z.infer<typeof subscriptionListSchema>;
export const subscriptionListReplySchema = dataReply(subscriptionListSchema);
/** Every subscription of the requested events now in place, and the events newly created. */
export const subscribeReplySchema = messageReply(
  z.object({ subscriptions: z.array(subscriptionSchema), created: z.array(z.string()) }),
);
export const unsubscribeReplySchema = messageReply(z.object({ removed: z.array(subscriptionSchema) }));
