import { randomUUID } from 'node:crypto';
import { commandKey, type Random } from '@kickstand/chat-language';
import { instanceGroup, type KickstandBus, type Subscription, type TopicMessage } from '@kickstand/platform/bus';
import { wallClockMs, type Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { processMetrics } from '@kickstand/platform/metrics';
import {
  BotConnectionStatus,
  BotControlAction,
  ChangeKind,
  ChatOrigin,
  ChatSubscriptionState,
  CommandKind,
  KickAccountChangeKind,
  UserChangeKind,
  commandSettingsFromProto,
  timestampFromDate,
  timestampFromMs,
  timestampMs,
} from '@kickstand/proto';
import {
  applyCommandChange,
  applyKickAccountChange,
  applySubscriptionChange,
  applyUserChange,
  type CommandChange,
  type ConnectionStatus,
  type KickAccountChange,
  type SubscriptionChange,
  type UserChange,
} from './bots';
import { chatLineOf } from './chat-line';
import { dispatch, renderReply, replyIdempotencyKey } from './dispatch';
import type { BotsView, Cooldowns, RecentReplies } from './read-model';
import type { BotsRepository, OutboxEntry } from './repository';
import type { BotRunner, PublishEntry } from './runner';
import { resolveTemplateInputs, type TemplateInputDeps } from './template-inputs';

/**
 * The bus door.
 *
 * In (group `bot-runner`, shared by the instances: each event is handled once): chat.received →
 * dispatch; command.changed, user.changed, kick.account, chat.subscription → the user's bot
 * document. In (group `bot-runner.instance.<instance id>`, one per instance): bot.status → reload that
 * user's document into this instance's in-memory view (read-model.ts).
 *
 * Out: bot.control, bot.status, audit.recorded through the outbox of the bot document (runner.ts);
 * chat.send and command.executed for each answered command.
 */
export const botRunnerConsumerGroup = 'bot-runner';
export const botRunnerViewGroup = (instanceId: string): string => instanceGroup(botRunnerConsumerGroup, instanceId);

// ---------------------------------------------------------------------------------------------
// Out: the outbox entries as proto messages
// ---------------------------------------------------------------------------------------------

const connectionStatusOf: Record<ConnectionStatus, BotConnectionStatus> = {
  CONNECTED: BotConnectionStatus.CONNECTED,
  DISCONNECTED: BotConnectionStatus.DISCONNECTED,
  ERROR: BotConnectionStatus.ERROR,
};

/** Each entry keeps its id as the message's event_id, so a message published twice is deduped downstream. */
export function createEntryPublisher(bus: KickstandBus): PublishEntry {
  return async (userId: string, entry: OutboxEntry) => {
    const header = { eventId: entry.id, occurredAt: timestampFromDate(entry.occurredAt) };
    switch (entry.topic) {
      case 'bot.status':
        await bus.publish('bot.status', userId, {
          ...header,
          userId,
          broadcasterUserId: entry.status.broadcasterUserId,
          isRunning: entry.status.isRunning,
          isConnected: entry.status.isConnected,
          status: connectionStatusOf[entry.status.status],
          commandCount: entry.status.commandCount,
          error: entry.status.error,
          notListeningReason: entry.status.notListeningReason,
          botEnabled: entry.status.botEnabled,
        });
        return;
      case 'bot.control':
        await bus.publish('bot.control', userId, {
          ...header,
          userId,
          broadcasterUserId: entry.broadcasterUserId,
          action: entry.action === 'START' ? BotControlAction.START : BotControlAction.STOP,
          requestId: entry.requestId,
        });
        return;
      case 'audit.recorded':
        await bus.publish('audit.recorded', userId, {
          ...header,
          actorUserId: entry.actorUserId,
          actorUsername: entry.actorUsername,
          action: entry.action,
          targetType: 'user',
          targetId: userId,
          targetUsername: entry.targetUsername,
          details: entry.details,
        });
        return;
    }
  };
}

// ---------------------------------------------------------------------------------------------
// In: facts from other services → the user's bot document
// ---------------------------------------------------------------------------------------------

const userChangeKinds: Partial<Record<UserChangeKind, UserChange['kind']>> = {
  [UserChangeKind.CREATED]: 'created',
  [UserChangeKind.ACTIVATED]: 'activated',
  [UserChangeKind.DEACTIVATED]: 'deactivated',
  [UserChangeKind.DELETED]: 'deleted',
};

const kickAccountKinds: Partial<Record<KickAccountChangeKind, KickAccountChange['kind']>> = {
  [KickAccountChangeKind.LINKED]: 'linked',
  [KickAccountChangeKind.UNLINKED]: 'unlinked',
  [KickAccountChangeKind.NEEDS_RELINK]: 'needs-relink',
};

const subscriptionStates: Partial<Record<ChatSubscriptionState, SubscriptionChange['state']>> = {
  [ChatSubscriptionState.ACTIVE]: 'active',
  [ChatSubscriptionState.INACTIVE]: 'inactive',
  [ChatSubscriptionState.FAILED]: 'failed',
};

const commandChangeKinds: Partial<Record<ChangeKind, CommandChange['kind']>> = {
  [ChangeKind.ADDED]: 'added',
  [ChangeKind.REMOVED]: 'removed',
  [ChangeKind.UPDATED]: 'updated',
};

export interface EventDeps {
  runner: BotRunner;
  repo: BotsRepository;
  log: Logger;
}

// Unknown enum values (a newer producer) count as UNSPECIFIED: 'other', which changes nothing.
// An automatic stop has no HTTP request: bot.control gets a generated request id.

export const onUserChanged =
  ({ runner }: EventDeps) =>
  async (message: TopicMessage<'user.changed'>): Promise<void> => {
    if (message.userId === '') return;
    const change: UserChange = {
      kind: userChangeKinds[message.kind] ?? 'other',
      username: message.username,
      isActive: message.isActive,
    };
    await runner.apply(message.userId, (state) => applyUserChange(state, change, randomUUID()));
  };

export const onKickAccount =
  ({ runner }: EventDeps) =>
  async (message: TopicMessage<'kick.account'>): Promise<void> => {
    if (message.userId === '') return;
    const change: KickAccountChange = {
      kind: kickAccountKinds[message.kind] ?? 'other',
      broadcasterUserId: message.kickUserId,
      username: message.kickUsername,
    };
    await runner.apply(message.userId, (state) => applyKickAccountChange(state, change, randomUUID()));
  };

export const onChatSubscription =
  ({ runner }: EventDeps) =>
  async (message: TopicMessage<'chat.subscription'>): Promise<void> => {
    if (message.userId === '') return;
    const change: SubscriptionChange = {
      state: subscriptionStates[message.state] ?? 'other',
      error: message.error,
      requestId: message.requestId,
      isRemovedByAdmin: message.isRemovedByAdmin,
    };
    await runner.apply(message.userId, (state) => applySubscriptionChange(state, change));
  };

export const onCommandChanged =
  ({ runner, repo }: EventDeps) =>
  async (message: TopicMessage<'command.changed'>): Promise<void> => {
    if (message.userId === '') return;
    const change: CommandChange = {
      kind: commandChangeKinds[message.kind] ?? 'other',
      command: message.command,
      response: message.response,
      previousCommand: message.previousCommand,
      // an event from before settings: the defaults, which is how its command behaved
      settings: commandSettingsFromProto(message.settings),
    };
    const { decision } = await runner.apply(message.userId, (state) => applyCommandChange(state, change));
    // a command removed and added again starts counting from 1
    if (change.kind === 'removed' && decision.kind === 'changed') {
      await repo.resetCount(message.userId, commandKey(change.command));
    }
    // a renamed command keeps counting (moveCount does nothing for a replay: the old count is gone)
    if (change.kind === 'updated' && change.previousCommand !== '') {
      await repo.moveCount(message.userId, commandKey(change.previousCommand), commandKey(change.command));
    }
  };

/** Another instance (or this one) changed a bot: this instance's view takes the stored document. */
export const onBotStatus =
  ({ runner }: EventDeps) =>
  async (message: TopicMessage<'bot.status'>): Promise<void> => {
    if (message.userId !== '') await runner.refresh(message.userId);
  };

// ---------------------------------------------------------------------------------------------
// In: chat.received → the answer to a custom command (the hot path)
// ---------------------------------------------------------------------------------------------

export interface DispatchDeps {
  bus: KickstandBus;
  repo: BotsRepository;
  view: BotsView;
  cooldowns: Cooldowns;
  replies: RecentReplies;
  builtInNames: ReadonlySet<string>;
  clock: Clock;
  random: Random;
  log: Logger;
  /** The counters and the stream, for responses that use them. */
  templateInputs: TemplateInputDeps;
}

/**
 * This handler's stage of a reply: called → chat.send published (docs/performance.md, "Where the
 * reply latency goes"); bound to its labels once (prom-client's `labels()` builds a child per call).
 */
let botRunnerStageTimer: { observe(seconds: number): void } | undefined;
const botRunnerStage = () =>
  (botRunnerStageTimer ??= processMetrics().replyStage.labels({ service: 'bot-runner', stage: 'bot-runner' }));

/**
 * Reads only memory, awaits only the count and the two publishes. A redelivered line (the same
 * message id) resumes where its first delivery stopped: it is counted once, and what was published
 * is not published again. Each step is remembered once it succeeded, so a failed publish is retried
 * by the bus without counting the line twice.
 */
export const onChatReceived =
  (deps: DispatchDeps) =>
  async (message: TopicMessage<'chat.received'>): Promise<void> => {
    if (message.isFromBot || message.messageId === '') return;
    const startedAtMs = wallClockMs();
    const now = deps.clock.now();
    const line = chatLineOf(message, now.getTime());
    const kept = deps.replies.get(line.messageId);
    if (kept === 'answered') return;
    let progress = kept;
    if (!progress) {
      const decision = dispatch(line, {
        bot: deps.view.get(line.ownerUserId),
        builtInNames: deps.builtInNames,
        lastAnsweredAtMs: deps.cooldowns.lastAnsweredAtMs,
      });
      if (decision.kind === 'ignore') {
        if (decision.reason !== 'not-a-command')
          deps.log.debug({ messageId: line.messageId, reason: decision.reason }, 'chat line not answered');
        return;
      }
      for (const { key, ms } of decision.cooldowns) deps.cooldowns.answered(key, line.sentAtMs, now, ms);
      progress = deps.replies.start(line.messageId, decision, now);
    }
    const { answer } = progress;
    progress.count ??= await deps.repo.incrementCount(answer.ownerUserId, answer.commandKey);
    progress.inputs ??= await resolveTemplateInputs(deps.templateInputs, line, answer.response);
    progress.content ??= renderReply(answer, line, progress.count, deps.random, progress.inputs);
    progress.executedAt ??= deps.clock.now();
    if (!progress.isChatSendPublished) {
      await deps.bus.publish('chat.send', line.broadcasterUserId, {
        eventId: randomUUID(),
        occurredAt: timestampFromDate(progress.executedAt),
        idempotencyKey: replyIdempotencyKey(line.messageId),
        broadcasterUserId: line.broadcasterUserId,
        ownerUserId: answer.ownerUserId,
        content: progress.content,
        replyToMessageId: line.messageId,
        replyToUsername: line.senderUsername,
        origin: ChatOrigin.COMMAND,
        sourceReceivedAt: message.receivedAt,
        // the line's own time, the same however often the line is delivered: kick-link's age check
        sourceSentAt: timestampFromMs(line.sentAtMs),
      });
      progress.isChatSendPublished = true;
      const receivedAtMs = message.receivedAt && timestampMs(message.receivedAt);
      if (receivedAtMs !== undefined) {
        processMetrics().commandLatency.observe(
          { service: 'bot-runner' },
          (deps.clock.now().getTime() - receivedAtMs) / 1000,
        );
      }
      botRunnerStage().observe((wallClockMs() - startedAtMs) / 1000);
    }
    if (!progress.isExecutedPublished) {
      await deps.bus.publish('command.executed', answer.ownerUserId, {
        eventId: randomUUID(),
        occurredAt: timestampFromDate(progress.executedAt),
        ownerUserId: answer.ownerUserId,
        broadcasterUserId: line.broadcasterUserId,
        command: answer.command,
        invokedByUsername: line.senderUsername,
        invokedByUserId: line.senderUserId,
        messageId: line.messageId,
        response: progress.content,
        executedAt: timestampFromDate(progress.executedAt),
        kind: CommandKind.CUSTOM,
      });
      progress.isExecutedPublished = true;
    }
    deps.replies.answered(line.messageId);
  };

// ---------------------------------------------------------------------------------------------
// Subscribing
// ---------------------------------------------------------------------------------------------

/** This instance's view of the bots: subscribed before the view is loaded, so no change slips between. */
export async function subscribeView(bus: KickstandBus, instanceId: string, deps: EventDeps): Promise<Subscription[]> {
  return [await bus.subscribe('bot.status', botRunnerViewGroup(instanceId), onBotStatus(deps))];
}

export async function subscribeBotRunnerEvents(
  bus: KickstandBus,
  deps: EventDeps & { dispatch: DispatchDeps },
): Promise<Subscription[]> {
  const group = botRunnerConsumerGroup;
  return Promise.all([
    bus.subscribe('user.changed', group, onUserChanged(deps)),
    bus.subscribe('kick.account', group, onKickAccount(deps)),
    bus.subscribe('command.changed', group, onCommandChanged(deps)),
    bus.subscribe('chat.subscription', group, onChatSubscription(deps)),
    bus.subscribe('chat.received', group, onChatReceived(deps.dispatch)),
  ]);
}
