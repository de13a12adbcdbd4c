import type { MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import {
  AuditRecordedSchema,
  ChatSubscriptionSchema,
  BotControlSchema,
  BotStatusSchema,
  ChatReceivedSchema,
  ChatSendSchema,
  ChatSentSchema,
  CommandChangedSchema,
  CommandExecutedSchema,
  GameEventSchema,
  KickAccountSchema,
  KickEventSchema,
  ModerationActionSchema,
  ModerationResultSchema,
  TeamChangedSchema,
  UserChangedSchema,
} from '@kickstand/proto';
import type { Bus, TopicRegistry } from './bus';

/**
 * Kickstand's topics: topic name → the one proto message (proto/kickstand/events/v1) that travels
 * on it. `Bus<KickstandTopics>` types publish and subscribe from this table. docs/topics.md holds
 * the same table and the rules for changing a contract (additive only).
 *
 * Facts are `<noun>.<past participle or state>`; the two instructions are `chat.send` and
 * `bot.control`. The key keeps one channel's (or one user's) events in order on one partition:
 * a broadcaster key is the Kick broadcaster user id as a decimal string, a user key is the
 * Kickstand user id.
 *
 * | topic            | producer          | consumers                     | key                 |
 * |------------------|-------------------|-------------------------------|---------------------|
 * | chat.received    | kick-link         | bot-runner, games, realtime   | broadcaster_user_id |
 * | chat.send        | bot-runner, games | kick-link (instruction)       | broadcaster_user_id |
 * | chat.sent        | kick-link         | realtime                      | broadcaster_user_id |
 * | command.executed | bot-runner        | realtime, auth                | owner_user_id       |
 * | command.changed  | commands          | auth, bot-runner, realtime    | user_id             |
 * | bot.status       | bot-runner        | auth, realtime                | user_id             |
 * | bot.control      | bot-runner        | kick-link (instruction)       | user_id             |
 * | user.changed     | auth              | gateway, commands, bot-runner, realtime | user_id   |
 * | kick.account     | kick-link         | auth, bot-runner              | user_id             |
 * | kick.event       | kick-link         | — (none yet)                  | broadcaster_user_id |
 * | game.event       | games             | — (none yet)                  | broadcaster_user_id |
 * | chat.subscription | kick-link        | bot-runner                    | user_id             |
 * | audit.recorded   | auth, bot-runner, kick-link, every service (editor actions) | auth | target_id (user) |
 * | moderation.action | bot-runner       | kick-link (instruction)       | broadcaster_user_id |
 * | moderation.result | kick-link        | bot-runner                    | broadcaster_user_id |
 * | team.changed     | auth              | every service (platform)      | owner_user_id       |
 *
 * Consumer groups are the service name; a reader every instance runs (realtime, the gateway's
 * deactivated users, bot-runner's view) uses a group of its own instance (`instanceGroup`:
 * `<service>.instance.<instance-id>`). Dead letters go to `<group>.dlq`, or to
 * `<service>.instances.dlq` from groups of one instance.
 */
export const kickstandTopics = {
  'chat.received': ChatReceivedSchema,
  'chat.send': ChatSendSchema,
  'chat.sent': ChatSentSchema,
  'command.executed': CommandExecutedSchema,
  'command.changed': CommandChangedSchema,
  'bot.status': BotStatusSchema,
  'bot.control': BotControlSchema,
  'user.changed': UserChangedSchema,
  'kick.account': KickAccountSchema,
  'kick.event': KickEventSchema,
  'game.event': GameEventSchema,
  'audit.recorded': AuditRecordedSchema,
  'chat.subscription': ChatSubscriptionSchema,
  'moderation.action': ModerationActionSchema,
  'moderation.result': ModerationResultSchema,
  'team.changed': TeamChangedSchema,
} as const satisfies TopicRegistry;

export type KickstandTopics = typeof kickstandTopics;

/**
 * The topics that carry a message per chat line (or per answered command): the ones whose
 * consumers let messages gather for a moment between fetches (the Kafka bus's batchWaitMs).
 */
export const chatRateTopics: ReadonlySet<string> = new Set([
  'chat.received',
  'chat.send',
  'chat.sent',
  'command.executed',
]);

export type KickstandTopicName = keyof KickstandTopics;

/** The decoded message of a topic, e.g. `TopicMessage<'chat.received'>` is `ChatReceived`. */
export type TopicMessage<T extends KickstandTopicName> = MessageShape<KickstandTopics[T]>;

/** What a publisher of a topic passes, e.g. `TopicInit<'chat.received'>` (plain fields, no `$typeName`). */
export type TopicInit<T extends KickstandTopicName> = MessageInitShape<KickstandTopics[T]>;

/** The bus every Kickstand service is given. */
export type KickstandBus = Bus<KickstandTopics>;
