import { randomUUID } from 'node:crypto';
import { moderationReasonMaxLength, type FilterAction, type ModerationActionKind } from '@kickstand/api-contract';
import type { KickstandBus, Subscription, TopicMessage } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import {
  ChatOrigin,
  KickAccountChangeKind,
  ModerationActionKind as ProtoActionKind,
  timestampFromDate,
} from '@kickstand/proto';
import { chatLineOf } from './chat-line';
import type { ChatLine } from './dispatch';
import { anyFilterOn, mayPermit, moderationIdempotencyKey, permitTarget, repeatKey, warningText } from './filters';
import type { ModerationLogDoc, ModerationRepository } from './moderation-repository';
import { judgeWithPermit, type Permits } from './permits';
import type { BotsView } from './read-model';

/**
 * The moderation filters' bus door. In (group `bot-runner.moderation`, shared by the instances):
 * chat.received → judge the line (filters.ts) and, when a filter catches it, log the action and
 * publish moderation.action (+ the warning as chat.send); kick.account → the link's scopes;
 * moderation.result → the log entry's outcome. A group of its own keeps the command hot path
 * (events.ts) untouched: a line is judged and answered independently.
 */
export const moderationConsumerGroup = 'bot-runner.moderation';

/**
 * What the rules remember between lines, in memory: each viewer's recent lines (for repeats). A
 * channel's lines all reach one instance (the bus key is the broadcaster), so memory is enough;
 * after a restart the repeat count starts afresh, which errs on the viewer's side. Permits are
 * in the store (permits.ts): a moderator's `$permit` must survive a restart.
 */
export interface ModerationMemory {
  /** The times of the viewer's earlier lines with this text (within the last hour). */
  earlierSame(broadcasterUserId: string, senderUserId: string, text: string): number[];
  remember(broadcasterUserId: string, senderUserId: string, text: string, atMs: number): void;
  /** Whether this instance judged the line already (a redelivered line is not counted twice). */
  isJudged(messageId: string): boolean;
  /** Marked once judging finished: a judgement that failed midway is done again on the bus's retry. */
  judged(messageId: string): void;
}

/** A Map that forgets its oldest entries beyond `max` (insertion order): memory stays bounded. */
class BoundedMap<V> extends Map<string, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: string, value: V): this {
    this.delete(key);
    super.set(key, value);
    for (const oldest of this.keys()) {
      if (this.size <= this.max) break;
      this.delete(oldest);
    }
    return this;
  }
}

export function createModerationMemory(): ModerationMemory {
  const lines = new BoundedMap<{ key: string; atMs: number }[]>(50_000);
  const seen = new BoundedMap<true>(50_000);
  const viewerKey = (broadcasterUserId: string, senderUserId: string) => `${broadcasterUserId}:${senderUserId}`;
  return {
    earlierSame: (broadcasterUserId, senderUserId, text) => {
      const key = repeatKey(text);
      return (lines.get(viewerKey(broadcasterUserId, senderUserId)) ?? [])
        .filter((entry) => entry.key === key)
        .map((entry) => entry.atMs);
    },
    remember: (broadcasterUserId, senderUserId, text, atMs) => {
      const key = viewerKey(broadcasterUserId, senderUserId);
      // the last 20 lines of a viewer within an hour: the repeat filter's largest count and window
      const kept = (lines.get(key) ?? []).filter((entry) => atMs - entry.atMs < 3_600_000).slice(-19);
      lines.set(key, [...kept, { key: repeatKey(text), atMs }]);
    },
    isJudged: (messageId) => seen.has(messageId),
    judged: (messageId) => {
      seen.set(messageId, true);
    },
  };
}

export interface ModerationDeps {
  bus: KickstandBus;
  repo: ModerationRepository;
  view: BotsView;
  memory: ModerationMemory;
  permits: Permits;
  clock: Clock;
  log: Logger;
}

const protoKinds: Record<ModerationActionKind | 'unban', ProtoActionKind> = {
  delete: ProtoActionKind.DELETE_MESSAGE,
  timeout: ProtoActionKind.TIMEOUT,
  ban: ProtoActionKind.BAN,
  unban: ProtoActionKind.UNBAN,
};

const reasonOf = (filter: string): string => `Kickstand filter: ${filter}`.slice(0, moderationReasonMaxLength);

/** Publishes a log entry's action (and its warning); marks it published. Safe to repeat: kick-link dedupes by key. */
async function publishAction(deps: ModerationDeps, doc: ModerationLogDoc): Promise<void> {
  const occurredAt = timestampFromDate(new Date(doc.atMs));
  await deps.bus.publish('moderation.action', doc.broadcasterUserId, {
    eventId: randomUUID(),
    occurredAt,
    idempotencyKey: doc._id,
    broadcasterUserId: doc.broadcasterUserId,
    ownerUserId: doc.userId,
    kind: protoKinds[doc.action],
    messageId: doc.messageId,
    targetUserId: doc.senderUserId,
    durationMinutes: doc.timeoutMinutes ?? 0,
    reason: reasonOf(doc.filter),
    logEntryId: doc._id,
  });
  if (doc.warning !== '') {
    await deps.bus.publish('chat.send', doc.broadcasterUserId, {
      eventId: randomUUID(),
      occurredAt,
      idempotencyKey: `warning:${doc.messageId}`,
      broadcasterUserId: doc.broadcasterUserId,
      ownerUserId: doc.userId,
      content: doc.warning,
      // said by the product on its own, not an answer to a command
      origin: ChatOrigin.SYSTEM,
      // when the entry was made (kept with it): a publish again says the same
      sourceSentAt: occurredAt,
    });
  }
  await deps.repo.updateLog(doc._id, { isPublished: true });
}

function logDocOf(
  line: ChatLine,
  filter: ModerationLogDoc['filter'],
  action: FilterAction,
  atMs: number,
): ModerationLogDoc {
  return {
    _id: moderationIdempotencyKey(line.messageId),
    userId: line.ownerUserId,
    broadcasterUserId: line.broadcasterUserId,
    atMs,
    filter,
    action: action.kind,
    timeoutMinutes: action.kind === 'timeout' ? action.timeoutMinutes : null,
    messageId: line.messageId,
    senderUserId: line.senderUserId,
    senderUsername: line.senderUsername,
    content: line.content,
    warning: action.warning === '' ? '' : warningText(action.warning, line.senderUsername),
    status: 'pending',
    error: '',
    isPublished: false,
    isUndoRequested: false,
  };
}

/**
 * Judges a chat line once. Only for a running bot of this very channel. `$permit <user>` from a
 * moderator or the broadcaster grants one link for 60 s. A replayed line finds its log entry (by
 * the message id) and only finishes publishing what the first delivery did not.
 *
 * Per line it reads nothing from the store unless a filter of the channel is on (the filters are
 * cached: moderation-repository.ts): with every filter off no line is caught, and the log entry of a
 * line caught while they were on and not yet published is left as it is.
 */
export const onChatForModeration =
  (deps: ModerationDeps) =>
  async (message: TopicMessage<'chat.received'>): Promise<void> => {
    if (message.isFromBot || message.messageId === '' || message.ownerUserId === '') return;
    const bot = deps.view.get(message.ownerUserId);
    if (!bot?.isRunning || bot.broadcasterUserId !== message.broadcasterUserId) return;
    // marked judged only once all of it is done, its action published too
    if (deps.memory.isJudged(message.messageId)) return;
    const nowMs = deps.clock.now().getTime();
    const line = chatLineOf(message, nowMs);
    const target = permitTarget(line.content);
    if (target !== undefined && mayPermit(line)) {
      await deps.permits.grant(line.broadcasterUserId, target);
      deps.memory.judged(line.messageId);
      return;
    }
    const filters = await deps.repo.filters(line.ownerUserId);
    if (!anyFilterOn(filters)) return;
    const existing = await deps.repo.logEntry(moderationIdempotencyKey(line.messageId));
    if (existing) {
      if (!existing.isPublished) await publishAction(deps, existing);
      deps.memory.judged(line.messageId);
      return;
    }
    const earlierSameAtMs = deps.memory.earlierSame(line.broadcasterUserId, line.senderUserId, line.content);
    const verdict = await judgeWithPermit(deps.permits, line, filters, earlierSameAtMs);
    // the repeat filter's memory, kept only while it is on (switched on, it counts from then)
    if (filters.repeats.enabled) {
      deps.memory.remember(line.broadcasterUserId, line.senderUserId, line.content, line.sentAtMs);
    }
    if (verdict.kind === 'pass') {
      if (verdict.usedPermit) await deps.permits.spend(line.broadcasterUserId, line.senderUsername);
      deps.memory.judged(line.messageId);
      return;
    }
    const doc = logDocOf(line, verdict.filter, verdict.action, nowMs);
    if (await deps.repo.insertLog(doc)) {
      deps.log.info(
        { messageId: line.messageId, filter: verdict.filter, action: doc.action },
        'chat line caught by a filter',
      );
      await publishAction(deps, doc);
    }
    deps.memory.judged(line.messageId);
  };

/** kick-link's answer: the entry shows done or failed (with Kick's reason); an unban's answer marks it undone. */
export const onModerationResult =
  (deps: Pick<ModerationDeps, 'repo'>) =>
  async (message: TopicMessage<'moderation.result'>): Promise<void> => {
    if (message.logEntryId === '') return;
    const entry = await deps.repo.logEntry(message.logEntryId);
    if (!entry || entry.userId !== message.ownerUserId) return;
    if (message.kind === ProtoActionKind.UNBAN) {
      await deps.repo.updateLog(entry._id, message.ok ? { status: 'undone', error: '' } : { error: message.error });
      return;
    }
    if (entry.status === 'undone') return;
    await deps.repo.updateLog(
      entry._id,
      message.ok ? { status: 'done', error: '' } : { status: 'failed', error: message.error },
    );
  };

/** The link's granted scopes, so a filter is switched on only when Kick lets the bot moderate. */
export const onKickAccountScopes =
  (deps: Pick<ModerationDeps, 'repo'>) =>
  async (message: TopicMessage<'kick.account'>): Promise<void> => {
    if (message.userId === '') return;
    if (message.kind === KickAccountChangeKind.LINKED) await deps.repo.saveScopes(message.userId, [...message.scopes]);
    if (message.kind === KickAccountChangeKind.UNLINKED) await deps.repo.saveScopes(message.userId, []);
  };

/** Undo (unban) of a timeout or ban: moderation.action UNBAN, keyed by the entry so a double click sends one. */
export async function requestUndo(
  deps: Pick<ModerationDeps, 'bus' | 'repo' | 'clock'>,
  doc: ModerationLogDoc,
): Promise<ModerationLogDoc> {
  await deps.bus.publish('moderation.action', doc.broadcasterUserId, {
    eventId: randomUUID(),
    occurredAt: timestampFromDate(deps.clock.now()),
    idempotencyKey: `undo:${doc._id}`,
    broadcasterUserId: doc.broadcasterUserId,
    ownerUserId: doc.userId,
    kind: ProtoActionKind.UNBAN,
    messageId: '',
    targetUserId: doc.senderUserId,
    durationMinutes: 0,
    reason: '',
    logEntryId: doc._id,
  });
  return (await deps.repo.updateLog(doc._id, { isUndoRequested: true })) ?? doc;
}

export async function subscribeModerationEvents(bus: KickstandBus, deps: ModerationDeps): Promise<Subscription[]> {
  return Promise.all([
    bus.subscribe('chat.received', moderationConsumerGroup, onChatForModeration(deps)),
    bus.subscribe('moderation.result', moderationConsumerGroup, onModerationResult(deps)),
    bus.subscribe('kick.account', moderationConsumerGroup, onKickAccountScopes(deps)),
  ]);
}
