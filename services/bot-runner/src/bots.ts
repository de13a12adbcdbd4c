import { isDeepStrictEqual } from 'node:util';
import {
  type BotStatus,
  botMessages,
  type CommandSettings,
  defaultCommandSettings,
  type NotListeningReason,
} from '@kickstand/api-contract';
import { commandKey } from '@kickstand/chat-language';
import { AppError } from '@kickstand/platform/errors';

/**
 * The rules of a streamer's bot: start, stop, the administrator's switch, and how the facts other
 * services publish (user.changed, kick.account, chat.subscription, command.changed) change it.
 * Pure: each function takes the current state and returns a decision (refused, unchanged, or the
 * next state with the instructions and audit entries it causes). The caller stores the state and
 * publishes the effects, and adds a bot.status whenever `statusOf` changed (runner.ts).
 */

/** The linked Kick account; its user id is also the broadcaster id of the channel. */
export interface KickLink {
  broadcasterUserId: string;
  username: string;
  /** Kick refused the tokens (kick.account NEEDS_RELINK): the streamer has to link again. */
  needsRelink: boolean;
}

/** A custom command as command.changed describes it; `key` is the case-insensitive lookup key. */
export interface StoredCommand {
  key: string;
  command: string;
  response: string;
  /** Absent on documents written before settings existed: the defaults (settingsOf). */
  settings?: CommandSettings;
}

/** A command's settings, the defaults where none were stored (which is how such a command behaved). */
export const settingsOf = (command: StoredCommand): CommandSettings => ({
  ...defaultCommandSettings,
  ...command.settings,
});

export interface BotState {
  /** The user appeared in user.changed or kick.account (the admin routes answer 404 otherwise). */
  seen: boolean;
  /** The Kickstand username (user.changed); '' until known. */
  username: string;
  /** false after user.changed DEACTIVATED or DELETED. */
  isActive: boolean;
  kick: KickLink | null;
  /** The administrator's switch. True until disabled, as auth assumes. */
  botEnabled: boolean;
  /** The streamer wants the bot on: start was pressed and nothing stopped it since. */
  isRunning: boolean;
  /** The bot ran when the account was deactivated: reactivation starts it again. */
  resumeOnActivation: boolean;
  /** kick-link reported the channel's chat subscription ACTIVE (chat.subscription). */
  isConnected: boolean;
  /** Why the bot failed; '' when it did not. A non-empty error is bot.status ERROR. */
  error: string;
  /**
   * The chat subscription went away while the bot ran, not by the bot's own STOP: removed by an
   * administrator ('admin') or gone at Kick ('kick'); '' otherwise. Start sends START again to repair it.
   */
  lostSubscription: LostSubscription;
  /** The request_id of the last bot.control, so that a late answer to an older one is ignored. */
  controlRequestId: string;
  commands: StoredCommand[];
}

export type LostSubscription = '' | 'admin' | 'kick';

export const newBotState = (): BotState => ({
  seen: false,
  username: '',
  isActive: true,
  kick: null,
  botEnabled: true,
  isRunning: false,
  resumeOnActivation: false,
  isConnected: false,
  error: '',
  lostSubscription: '',
  controlRequestId: '',
  commands: [],
});

// The answers' texts are the HTTP contract's.
export { botMessages };

export type Refusal = 'inactive' | 'not-linked' | 'needs-relink' | 'disabled' | 'unknown-user' | 'admin-not-linked';

export interface Actor {
  userId: string;
  username: string;
}

export type BotEffect =
  | { kind: 'control'; action: 'START' | 'STOP'; requestId: string }
  | { kind: 'audit'; action: 'bot.enabled' | 'bot.disabled'; actor: Actor };

export type BotDecision =
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'unchanged' }
  | { kind: 'changed'; state: BotState; effects: BotEffect[] };

const refusalErrors: Record<Refusal, () => AppError> = {
  inactive: () => new AppError({ code: 'account-inactive', status: 403, message: botMessages.inactive }),
  'not-linked': () => new AppError({ code: 'kick-not-linked', status: 400, message: botMessages.notLinked }),
  'needs-relink': () => new AppError({ code: 'kick-needs-relink', status: 400, message: botMessages.needsRelink }),
  disabled: () => new AppError({ code: 'bot-disabled', status: 403, message: botMessages.disabledByAdmin }),
  'unknown-user': () => new AppError({ code: 'user-not-found', status: 404, message: botMessages.userNotFound }),
  'admin-not-linked': () => new AppError({ code: 'kick-not-linked', status: 400, message: botMessages.adminNotLinked }),
};

/** The HTTP answer for a refusal. */
export const refusalError = (refusal: Refusal): AppError => refusalErrors[refusal]();

const unchanged: BotDecision = { kind: 'unchanged' };

/** Unchanged when the rules left the state as it was, so a replayed event does nothing. */
function changed(before: BotState, after: BotState, effects: BotEffect[] = []): BotDecision {
  if (effects.length === 0 && isDeepStrictEqual(before, after)) return unchanged;
  return { kind: 'changed', state: after, effects };
}

/** The state after a stop: not running, not connected, no error. */
const stopped = (state: BotState): BotState => ({
  ...state,
  isRunning: false,
  isConnected: false,
  error: '',
  lostSubscription: '',
});

/** A stop caused by something else (deactivation, unlink, the admin switch): STOP only if it ran. */
function stopIfRunning(
  before: BotState,
  after: BotState,
  requestId: string,
): { state: BotState; effects: BotEffect[] } {
  if (!before.isRunning) return { state: after, effects: [] };
  // a stop clears an old error, unless its cause brings one of its own (NEEDS_RELINK)
  const error = after.error === before.error ? '' : after.error;
  return {
    state: { ...stopped(after), error, controlRequestId: requestId },
    effects: [{ kind: 'control', action: 'STOP', requestId }],
  };
}

// ---------------------------------------------------------------------------------------------
// The streamer's and the administrator's requests
// ---------------------------------------------------------------------------------------------

/**
 * Start: the account must be active, linked (and not waiting for a relink) and enabled. Starting a
 * running bot changes nothing, unless it failed (ERROR) or lost its chat subscription: then START
 * goes out again, as a repair.
 */
export function start(state: BotState, requestId: string): BotDecision {
  if (!state.isActive) return { kind: 'refused', refusal: 'inactive' };
  if (!state.kick) return { kind: 'refused', refusal: 'not-linked' };
  if (state.kick.needsRelink) return { kind: 'refused', refusal: 'needs-relink' };
  if (!state.botEnabled) return { kind: 'refused', refusal: 'disabled' };
  if (state.isRunning && state.error === '' && state.lostSubscription === '') return unchanged;
  const next: BotState = {
    ...state,
    isRunning: true,
    isConnected: false,
    error: '',
    lostSubscription: '',
    controlRequestId: requestId,
  };
  return changed(state, next, [{ kind: 'control', action: 'START', requestId }]);
}

/** Stop: STOP goes out when the bot runs; stopping a stopped bot changes nothing. */
export function stop(state: BotState, requestId: string): BotDecision {
  if (!state.isRunning) return unchanged;
  return changed(state, { ...stopped(state), controlRequestId: requestId }, [
    { kind: 'control', action: 'STOP', requestId },
  ]);
}

/**
 * The administrator's switch. Only a user the service knows of can be switched, and only a user
 * with a linked Kick account can be enabled (spec §4). Disabling stops a running bot. Every real
 * change is audited; switching to the state it already has changes nothing and audits nothing.
 */
export function setEnabled(state: BotState, isEnabled: boolean, actor: Actor, requestId: string): BotDecision {
  if (!state.seen) return { kind: 'refused', refusal: 'unknown-user' };
  if (isEnabled && !state.kick) return { kind: 'refused', refusal: 'admin-not-linked' };
  if (state.botEnabled === isEnabled) return unchanged;
  const audit: BotEffect = { kind: 'audit', action: isEnabled ? 'bot.enabled' : 'bot.disabled', actor };
  if (isEnabled) return changed(state, { ...state, botEnabled: true }, [audit]);
  const next = stopIfRunning(state, { ...state, botEnabled: false }, requestId);
  return changed(state, next.state, [...next.effects, audit]);
}

// ---------------------------------------------------------------------------------------------
// Facts from other services
// ---------------------------------------------------------------------------------------------

export interface UserChange {
  kind: 'created' | 'activated' | 'deactivated' | 'deleted' | 'other';
  username: string;
  isActive: boolean;
}

/**
 * user.changed: remember the user and whether it is active. A deactivated or deleted user's bot
 * stops; a deactivated user's bot that ran starts again on reactivation, or, when it cannot start
 * (unlinked, relink needed, disabled), shows why as its error.
 */
export function applyUserChange(state: BotState, change: UserChange, requestId: string): BotDecision {
  if (change.kind === 'other') return unchanged;
  const isActive = change.kind === 'deactivated' || change.kind === 'deleted' ? false : change.isActive;
  const next: BotState = { ...state, seen: true, username: change.username || state.username, isActive };
  if (isActive) {
    if (state.isActive || !state.resumeOnActivation) return changed(state, next);
    const resumed: BotState = { ...next, resumeOnActivation: false };
    const decision = start(resumed, requestId);
    if (decision.kind === 'refused')
      return changed(state, { ...resumed, error: refusalError(decision.refusal).message });
    return decision.kind === 'changed' ? changed(state, decision.state, decision.effects) : changed(state, resumed);
  }
  // a replayed DEACTIVATED (the bot stopped already) keeps what the first one remembered
  const resumeOnActivation = change.kind === 'deactivated' && (state.isRunning || state.resumeOnActivation);
  const after = stopIfRunning(state, { ...next, resumeOnActivation }, requestId);
  return changed(state, after.state, after.effects);
}

export interface KickAccountChange {
  kind: 'linked' | 'unlinked' | 'needs-relink' | 'other';
  broadcasterUserId: string;
  username: string;
}

/**
 * kick.account: LINKED remembers the channel (and clears a relink error); UNLINKED forgets it and
 * stops the bot; NEEDS_RELINK stops the bot and shows the relink error.
 */
export function applyKickAccountChange(state: BotState, change: KickAccountChange, requestId: string): BotDecision {
  switch (change.kind) {
    case 'linked': {
      const kick: KickLink = {
        broadcasterUserId: change.broadcasterUserId,
        username: change.username,
        needsRelink: false,
      };
      const error = state.error === botMessages.needsRelink ? '' : state.error;
      const next: BotState = { ...state, seen: true, kick, error };
      // another channel than the one the bot runs in: that bot stops, the streamer starts it again
      if (state.kick && state.kick.broadcasterUserId !== kick.broadcasterUserId) {
        const after = stopIfRunning(state, next, requestId);
        return changed(state, after.state, after.effects);
      }
      return changed(state, next);
    }
    case 'unlinked': {
      const after = stopIfRunning(state, { ...state, seen: true, kick: null, error: '' }, requestId);
      return changed(state, after.state, after.effects);
    }
    case 'needs-relink': {
      const kick: KickLink = {
        broadcasterUserId: state.kick?.broadcasterUserId ?? change.broadcasterUserId,
        username: state.kick?.username ?? change.username,
        needsRelink: true,
      };
      const next: BotState = { ...state, seen: true, kick, isConnected: false, error: botMessages.needsRelink };
      const after = stopIfRunning(state, next, requestId);
      return changed(state, after.state, after.effects);
    }
    default:
      return unchanged;
  }
}

export interface SubscriptionChange {
  state: 'active' | 'inactive' | 'failed' | 'other';
  error: string;
  /** The bot.control request this answers; '' when it answers none (Kick dropped the subscription). */
  requestId: string;
  /** An administrator removed the subscription (INACTIVE from the admin webhook calls). */
  isRemovedByAdmin?: boolean;
}

/**
 * chat.subscription, kick-link's answer to bot.control: ACTIVE connects a running bot, INACTIVE
 * disconnects it, FAILED disconnects it with an error. An answer to an older bot.control than the
 * last one is stale and changes nothing; so does ACTIVE or FAILED for a bot that is not running.
 * An INACTIVE that answers no bot.control (an administrator's unsubscribe, Kick dropping it) while
 * the bot runs is remembered as a lost subscription, so the streamer learns why and can repair it.
 */
export function applySubscriptionChange(state: BotState, change: SubscriptionChange): BotDecision {
  const isStale =
    change.requestId !== '' && state.controlRequestId !== '' && change.requestId !== state.controlRequestId;
  if (isStale) return unchanged;
  switch (change.state) {
    case 'active':
      return state.isRunning
        ? changed(state, { ...state, isConnected: true, error: '', lostSubscription: '' })
        : unchanged;
    case 'inactive': {
      const isLost = state.isRunning && change.requestId === '';
      const lostSubscription: LostSubscription = isLost ? (change.isRemovedByAdmin ? 'admin' : 'kick') : '';
      return changed(state, { ...state, isConnected: false, lostSubscription });
    }
    case 'failed':
      if (!state.isRunning) return unchanged;
      return changed(state, { ...state, isConnected: false, error: change.error || botMessages.subscriptionFailed });
    default:
      return unchanged;
  }
}

export interface CommandChange {
  kind: 'added' | 'removed' | 'updated' | 'other';
  command: string;
  response: string;
  /** 'updated': the name before the change ('' from a producer that did not say: the same name). */
  previousCommand: string;
  settings: CommandSettings;
}

/**
 * command.changed: the streamer's commands, as the commands service announces them. Events of one
 * user arrive in order (they share the key), so applying them in order converges, replays included.
 * An update replaces the command under its previous name (a rename) or its name, where it was.
 */
export function applyCommandChange(state: BotState, change: CommandChange): BotDecision {
  if (change.command === '' || change.kind === 'other') return unchanged;
  const key = commandKey(change.command);
  if (change.kind === 'removed') {
    return changed(state, { ...state, commands: state.commands.filter((command) => command.key !== key) });
  }
  const replaced = new Set([key]);
  if (change.kind === 'updated' && change.previousCommand !== '') replaced.add(commandKey(change.previousCommand));
  const next: StoredCommand = { key, command: change.command, response: change.response, settings: change.settings };
  const index = state.commands.findIndex((command) => replaced.has(command.key));
  const kept = state.commands.filter((command) => !replaced.has(command.key));
  const commands = index === -1 ? [...kept, next] : [...kept.slice(0, index), next, ...kept.slice(index)];
  return changed(state, { ...state, commands });
}

// ---------------------------------------------------------------------------------------------
// What the bot looks like from outside
// ---------------------------------------------------------------------------------------------

export type ConnectionStatus = 'CONNECTED' | 'DISCONNECTED' | 'ERROR';

export { notListeningReasons, type NotListeningReason } from '@kickstand/api-contract';

/** null while the bot listens (running and its chat subscribed). */
export function notListeningReasonOf(state: BotState): NotListeningReason | null {
  if (!state.isActive) return 'deactivated';
  if (!state.kick) return 'not-linked';
  if (state.kick.needsRelink) return 'needs-relink';
  if (!state.botEnabled) return 'disabled-by-admin';
  if (!state.isRunning) return 'stopped';
  if (state.error !== '') return 'subscription-failed';
  if (state.lostSubscription === 'admin') return 'unsubscribed-by-admin';
  if (state.lostSubscription === 'kick') return 'subscription-lost';
  return state.isConnected ? null : 'connecting';
}

/** Everything bot.status carries: one is published whenever this changes. */
export interface BotStatusSnapshot {
  /** '0' when no Kick account is linked. */
  broadcasterUserId: string;
  isRunning: boolean;
  isConnected: boolean;
  status: ConnectionStatus;
  commandCount: number;
  error: string;
  botEnabled: boolean;
  /** '' while the bot listens. */
  notListeningReason: NotListeningReason | '';
}

export function statusOf(state: BotState): BotStatusSnapshot {
  return {
    broadcasterUserId: state.kick?.broadcasterUserId ?? '0',
    isRunning: state.isRunning,
    isConnected: state.isConnected,
    status: state.error !== '' ? 'ERROR' : state.isConnected ? 'CONNECTED' : 'DISCONNECTED',
    commandCount: state.commands.length,
    error: state.error,
    botEnabled: state.botEnabled,
    notListeningReason: notListeningReasonOf(state) ?? '',
  };
}

/**
 * The spec's bot status (§3), as GET /api/platform/bot/status and start/stop answer it, plus why
 * the bot does not listen (null while it does) and the failure's own words: the HTTP contract's.
 */
export type BotStatusView = BotStatus;

export function viewOf(state: BotState): BotStatusView {
  return {
    isRunning: state.isRunning,
    isConnected: state.isConnected,
    connected: state.isConnected,
    status: state.isConnected ? 'connected' : 'disconnected',
    commands: state.commands.length,
    notListeningReason: notListeningReasonOf(state),
    error: state.error,
  };
}
