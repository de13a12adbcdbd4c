import { z } from 'zod';
import { dataReply, isoDateTime, messageReply } from './common';
import { maxResponseLength } from './commands';

// Issue 20 items 1 and 2: what the bot says when Kick tells of a follow, a subscription, a gift, a
// reward, or the stream going live or offline (bot-runner posts them; the streamer edits them).

/** Every event message, in the order the dashboard shows them. */
export const eventMessageKinds = [
  'follow',
  'subscription',
  'renewal',
  'gifted-subs',
  'kicks',
  'reward',
  'live',
  'offline',
] as const;
export type EventMessageKind = (typeof eventMessageKinds)[number];

/** The variables each message may use; any other `{name}` is refused. */
export const eventMessageVariables: Record<EventMessageKind, readonly string[]> = {
  follow: ['user'],
  subscription: ['user', 'months'],
  renewal: ['user', 'months'],
  'gifted-subs': ['user', 'count'],
  kicks: ['user', 'amount'],
  reward: ['user', 'reward'],
  live: ['title', 'game'],
  offline: ['title', 'game'],
};

/** The message of each kind when the streamer has not set one, and whether it is on then. */
export const eventMessageDefaults: Record<EventMessageKind, { enabled: boolean; template: string }> = {
  follow: { enabled: true, template: 'Thanks for the follow, {user}!' },
  subscription: { enabled: true, template: 'Thanks for subscribing, {user}!' },
  renewal: { enabled: true, template: 'Thanks for {months} months, {user}!' },
  'gifted-subs': { enabled: true, template: 'Thanks {user} for gifting {count} subs!' },
  kicks: { enabled: false, template: 'Thanks {user} for {amount} Kicks!' },
  reward: { enabled: false, template: '{user} redeemed {reward}!' },
  live: { enabled: false, template: 'We are live! {title}' },
  offline: { enabled: false, template: 'The stream is over. Thanks for watching!' },
};

/** The names shown in the dashboard and in the answers. */
export const eventMessageLabels: Record<EventMessageKind, string> = {
  follow: 'Follow',
  subscription: 'New subscription',
  renewal: 'Subscription renewal',
  'gifted-subs': 'Gifted subscriptions',
  kicks: 'Kicks gifted',
  reward: 'Reward redemption',
  live: 'Go-live',
  offline: 'Offline',
};

export const eventMessageTexts = {
  templateRequired: 'The message is required.',
  templateTooLong: `The message must be ${maxResponseLength} characters or less.`,
  enabled: 'enabled must be true or false',
  saved: 'Event messages saved.',
  /** `{name}` in a message whose event has no such variable. */
  unknownVariable: (kind: EventMessageKind, name: string) =>
    `The ${eventMessageLabels[kind].toLowerCase()} message cannot use {${name}}; it can use ${eventMessageVariables[
      kind
    ]
      .map((variable) => `{${variable}}`)
      .join(' ')}.`,
} as const;

/** The `{name}` placeholders of a template, in order. */
export const templateVariablePattern = /\{([^{}\s]*)\}/g;

function eventMessageTemplateSchema(kind: EventMessageKind) {
  return z
    .string({ error: eventMessageTexts.templateRequired })
    .refine((text) => text.trim() !== '', eventMessageTexts.templateRequired)
    .refine((text) => text.length <= maxResponseLength, eventMessageTexts.templateTooLong)
    .superRefine((text, ctx) => {
      for (const [, name = ''] of text.matchAll(templateVariablePattern)) {
        if (!eventMessageVariables[kind].includes(name)) {
          ctx.addIssue({ code: 'custom', message: eventMessageTexts.unknownVariable(kind, name) });
          return;
        }
      }
    });
}

const eventMessageSettingSchema = (kind: EventMessageKind) =>
  z.strictObject({
    enabled: z.boolean({ error: eventMessageTexts.enabled }),
    template: eventMessageTemplateSchema(kind),
  });

/** PUT body: the kinds given are replaced, the others stay as they are. */
export const eventMessagesBodySchema = z
  .strictObject({
    follow: eventMessageSettingSchema('follow').optional(),
    subscription: eventMessageSettingSchema('subscription').optional(),
    renewal: eventMessageSettingSchema('renewal').optional(),
    'gifted-subs': eventMessageSettingSchema('gifted-subs').optional(),
    kicks: eventMessageSettingSchema('kicks').optional(),
    reward: eventMessageSettingSchema('reward').optional(),
    live: eventMessageSettingSchema('live').optional(),
    offline: eventMessageSettingSchema('offline').optional(),
  })
  .meta({ title: 'EventMessagesBody' });
export type EventMessagesBody = z.infer<typeof eventMessagesBodySchema>;

export const eventMessageSchema = z
  .object({
    kind: z.enum(eventMessageKinds),
    enabled: z.boolean(),
    template: z.string(),
    /** What the variables may be. */
    variables: z.array(z.string()),
    defaultTemplate: z.string(),
  })
  .meta({ title: 'EventMessage' });
export type EventMessage = z.infer<typeof eventMessageSchema>;

export const eventMessagesReplySchema = dataReply(z.array(eventMessageSchema));
export const eventMessagesSavedReplySchema = messageReply(z.array(eventMessageSchema));

/** The channel's stream as the livestream events told it (the dashboard's live card). */
export const streamStateSchema = z
  .object({
    isLive: z.boolean(),
    title: z.string(),
    /** The category ('' before Kick named one). */
    game: z.string(),
    startedAt: isoDateTime().nullable(),
  })
  .meta({ title: 'StreamState' });
export type StreamStateView = z.infer<typeof streamStateSchema>;
export const streamStateReplySchema = dataReply(streamStateSchema);
