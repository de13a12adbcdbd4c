import { instanceGroup, type KickstandBus, type Subscription, type TopicMessage } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import { ChangeKind, UserChangeKind, type UserChanged } from '@kickstand/proto';
import { channelEventFrom } from './channel-events';
import type { ChatLog } from './chat-log';
import {
  botErrorFromFailedSend,
  botErrorFromStatus,
  botStatusFrom,
  chatMessageFromReceived,
  chatMessageFromSent,
  commandExecutedFrom,
  dateOf,
  messageSentFrom,
} from './payloads';
import type { UserSockets } from './socket-server';

/** Each instance reads every event with a group of its own, and delivers to the sockets it holds. */
export const realtimeConsumerGroup = (instanceId: string): string => instanceGroup('realtime', instanceId);

export interface EventDeps {
  sockets: UserSockets;
  chatLog: ChatLog;
  clock: Clock;
}

type Handler<T extends Parameters<KickstandBus['subscribe']>[0]> = (message: TopicMessage<T>) => Promise<void>;

/**
 * chat.received → chat-message for the channel owner's room, and into the history. The bot's own
 * lines coming back from Kick (is_from_bot) are skipped: chat.sent showed them already.
 */
export function onChatReceived({ sockets, chatLog, clock }: EventDeps): Handler<'chat.received'> {
  return async (message) => {
    if (message.isFromBot || message.ownerUserId === '') return;
    const now = clock.now();
    const line = chatMessageFromReceived(message, now);
    sockets.emit(message.ownerUserId, 'chat-message', line);
    chatLog.append(message.ownerUserId, line, dateOf(message.receivedAt ?? message.createdAt, now));
  };
}

/**
 * chat.sent → for a line Kick accepted: message-sent, and the bot's chat-message for the log (and
 * the history); for a failed one: bot-error.
 */
export function onChatSent({ sockets, chatLog, clock }: EventDeps): Handler<'chat.sent'> {
  return async (message) => {
    if (message.ownerUserId === '') return;
    const now = clock.now();
    if (!message.isSent) {
      sockets.emit(message.ownerUserId, 'bot-error', botErrorFromFailedSend(message, now));
      return;
    }
    const line = chatMessageFromSent(message, now);
    sockets.emit(message.ownerUserId, 'message-sent', messageSentFrom(message, now));
    sockets.emit(message.ownerUserId, 'chat-message', line);
    chatLog.append(message.ownerUserId, line, dateOf(message.sentAt, now));
  };
}

/**
 * kick.event → channel-event for the channel owner's room, and into the history, for the types
 * shown as event lines (channel-events.ts); the others are not for the live chat.
 */
export function onKickEvent({ sockets, chatLog, clock }: EventDeps): Handler<'kick.event'> {
  return async (message) => {
    if (message.ownerUserId === '') return;
    const event = channelEventFrom(message, clock.now());
    if (!event) return;
    sockets.emit(message.ownerUserId, 'channel-event', event);
    chatLog.appendEvent(message.ownerUserId, event, new Date(event.timestamp));
  };
}

/** bot.status → bot-status; with status ERROR, a bot-error first. */
export function onBotStatus({ sockets, clock }: EventDeps): Handler<'bot.status'> {
  return async (message) => {
    if (message.userId === '') return;
    const error = botErrorFromStatus(message, clock.now());
    if (error) sockets.emit(message.userId, 'bot-error', error);
    sockets.emit(message.userId, 'bot-status', botStatusFrom(message));
  };
}

export function onCommandExecuted({ sockets, clock }: EventDeps): Handler<'command.executed'> {
  return async (message) => {
    if (message.ownerUserId === '') return;
    sockets.emit(message.ownerUserId, 'command-executed', commandExecutedFrom(message, clock.now()));
  };
}

/**
 * command.changed → command-added / command-removed (an unknown kind is ignored). An edit (UPDATED)
 * is told with the spec's two events, which the dashboard already follows: a rename removes the old
 * name, and the command as it now is comes as command-added.
 */
export function onCommandChanged({ sockets }: EventDeps): Handler<'command.changed'> {
  return async (message) => {
    if (message.userId === '') return;
    if (message.kind === ChangeKind.ADDED) {
      sockets.emit(message.userId, 'command-added', { command: message.command, response: message.response });
    } else if (message.kind === ChangeKind.REMOVED) {
      sockets.emit(message.userId, 'command-removed', { command: message.command });
    } else if (message.kind === ChangeKind.UPDATED) {
      const previous = message.previousCommand;
      if (previous !== '' && previous.toLowerCase() !== message.command.toLowerCase()) {
        sockets.emit(message.userId, 'command-removed', { command: previous });
      }
      sockets.emit(message.userId, 'command-added', { command: message.command, response: message.response });
    }
  };
}

/** Deactivated, deleted or signed out: the user's open sockets go (their tokens no longer pass). */
export function endsSessions(change: UserChanged): boolean {
  return (
    change.kind === UserChangeKind.DEACTIVATED ||
    change.kind === UserChangeKind.DELETED ||
    change.kind === UserChangeKind.SIGNED_OUT
  );
}

/**
 * user.changed → a deactivated, deleted or signed-out user's sockets close. New ones are refused by
 * the handshake's token check (the platform's user-access read model, fed by the same topic).
 */
export function onUserChanged({ sockets }: EventDeps): Handler<'user.changed'> {
  return async (change) => {
    if (change.userId !== '' && endsSessions(change)) sockets.disconnect(change.userId);
  };
}

export async function subscribeRealtimeEvents(
  bus: KickstandBus,
  instanceId: string,
  deps: EventDeps,
): Promise<Subscription[]> {
  const group = realtimeConsumerGroup(instanceId);
  return [
    await bus.subscribe('chat.received', group, onChatReceived(deps)),
    await bus.subscribe('chat.sent', group, onChatSent(deps)),
    await bus.subscribe('kick.event', group, onKickEvent(deps)),
    await bus.subscribe('bot.status', group, onBotStatus(deps)),
    await bus.subscribe('command.executed', group, onCommandExecuted(deps)),
    await bus.subscribe('command.changed', group, onCommandChanged(deps)),
    await bus.subscribe('user.changed', group, onUserChanged(deps)),
  ];
}
