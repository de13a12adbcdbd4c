import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Clock } from '@kickstand/platform/clock';
import { unavailable } from '@kickstand/platform/errors';
import { createKeyedQueue } from '@kickstand/platform/keyed-queue';
import type { Logger } from '@kickstand/platform/log';
import { createOutboxRelay } from '@kickstand/platform/outbox';
import {
  newBotState,
  refusalError,
  setEnabled,
  start,
  statusOf,
  stop,
  viewOf,
  type Actor,
  type BotDecision,
  type BotState,
  type BotStatusView,
} from './bots';
import type { BotsView } from './read-model';
import { stateOf, type BotDoc, type BotsRepository, type OutboxEntry } from './repository';

/**
 * The use cases around one user's bot document: read it, let a rule of bots.ts decide, write the
 * next state together with the messages it causes (the outbox) on the version that was read, then
 * publish those messages. Every change of what bot.status shows adds a bot.status.
 *
 * Within this process the changes of one user run one at a time, so their messages leave in order.
 * Between instances the version check decides: a write on a stale version is retried on a fresh read.
 */

/** Publishes one outbox entry on the bus (events.ts). */
export type PublishEntry = (userId: string, entry: OutboxEntry) => Promise<void>;

export interface BotRunner {
  status(userId: string): Promise<BotStatusView>;
  start(userId: string, requestId: string): Promise<{ isChanged: boolean; view: BotStatusView }>;
  stop(userId: string, requestId: string): Promise<{ isChanged: boolean; view: BotStatusView }>;
  setEnabled(
    userId: string,
    isEnabled: boolean,
    actor: Actor,
    requestId: string,
  ): Promise<{ botEnabled: boolean; view: BotStatusView }>;
  /** Applies a rule to the user's bot (bus handlers); refusals are not expected here and change nothing. */
  apply(userId: string, decide: (state: BotState) => BotDecision): Promise<{ decision: BotDecision; state: BotState }>;
  /** Reloads one user's document into the view (another instance changed it). */
  refresh(userId: string): Promise<void>;
  /** Publishes what every outbox still holds now (resolves when done), then every `outboxRetryMs`. Never throws. */
  startOutbox(): Promise<void>;
  stopOutbox(): void;
}

const maxWriteAttempts = 5;

export function createBotRunner({
  repo,
  view,
  publish,
  clock,
  log,
  outboxRetryMs,
}: {
  repo: BotsRepository;
  view: BotsView;
  publish: PublishEntry;
  clock: Clock;
  log: Logger;
  /** How often messages left in an outbox (a bus outage) are retried; 30 s by default. */
  outboxRetryMs?: number;
}): BotRunner {
  const queue = createKeyedQueue();
  const serially = <T>(userId: string, run: () => Promise<T>) => queue.run(userId, run);
  // the relay shares the queue: a write and the publishing of its messages never interleave with another of the user
  const relay = createOutboxRelay<BotDoc, OutboxEntry>({
    collection: repo.outboxCollection,
    idField: 'id',
    publish: (doc, entry) => publish(doc._id, entry),
    log,
    name: 'bot-runner',
    queue,
    ...(outboxRetryMs !== undefined ? { retryMs: outboxRetryMs } : {}),
  });
  const flush = relay.publishFrom;

  function apply(
    userId: string,
    decide: (state: BotState) => BotDecision,
  ): Promise<{ decision: BotDecision; state: BotState }> {
    return serially(userId, async () => {
      for (let attempt = 1; ; attempt++) {
        const doc = await repo.get(userId);
        const before = doc ? stateOf(doc) : newBotState();
        const decision = decide(before);
        if (decision.kind !== 'changed') {
          if (doc && doc.outbox.length > 0) await flush(doc);
          return { decision, state: before };
        }
        const now = clock.now();
        const outbox = outboxFor(before, decision, now);
        const written = doc
          ? await repo.replace(userId, doc.version, decision.state, outbox, now)
          : await repo.insert(userId, decision.state, outbox, now);
        if (written) {
          view.apply(written);
          await flush(written);
          return { decision, state: decision.state };
        }
        if (attempt >= maxWriteAttempts) {
          throw unavailable('bot-write-conflict', 'The bot is busy. Try again.', 1);
        }
      }
    });
  }

  async function decideOrRefuse(userId: string, decide: (state: BotState) => BotDecision) {
    const result = await apply(userId, decide);
    if (result.decision.kind === 'refused') throw refusalError(result.decision.refusal);
    return { isChanged: result.decision.kind === 'changed', state: result.state };
  }

  return {
    status: async (userId) => {
      const doc = await repo.get(userId);
      return viewOf(doc ? stateOf(doc) : newBotState());
    },
    start: async (userId, requestId) => {
      const { isChanged, state } = await decideOrRefuse(userId, (s) => start(s, requestId));
      return { isChanged, view: viewOf(state) };
    },
    stop: async (userId, requestId) => {
      const { isChanged, state } = await decideOrRefuse(userId, (s) => stop(s, requestId));
      return { isChanged, view: viewOf(state) };
    },
    setEnabled: async (userId, isEnabled, actor, requestId) => {
      const { state } = await decideOrRefuse(userId, (s) => setEnabled(s, isEnabled, actor, requestId));
      return { botEnabled: state.botEnabled, view: viewOf(state) };
    },
    apply,
    refresh: async (userId) => {
      const doc = await repo.get(userId);
      if (doc) view.apply(doc);
    },
    startOutbox: relay.start,
    stopOutbox: relay.stop,
  };
}

/** The messages a change causes: its instructions, a bot.status if what it shows changed, its audit entries. */
function outboxFor(before: BotState, decision: Extract<BotDecision, { kind: 'changed' }>, now: Date): OutboxEntry[] {
  const after = decision.state;
  const entries: OutboxEntry[] = [];
  for (const effect of decision.effects) {
    if (effect.kind !== 'control') continue;
    entries.push({
      id: randomUUID(),
      occurredAt: now,
      topic: 'bot.control',
      action: effect.action,
      // an unlink forgets the channel; the STOP still names the one the bot ran in
      broadcasterUserId: (after.kick ?? before.kick)?.broadcasterUserId ?? '0',
      requestId: effect.requestId,
    });
  }
  const status = statusOf(after);
  if (!isDeepStrictEqual(statusOf(before), status)) {
    entries.push({ id: randomUUID(), occurredAt: now, topic: 'bot.status', status });
  }
  for (const effect of decision.effects) {
    if (effect.kind !== 'audit') continue;
    const kickUsername = after.kick?.username ?? '';
    entries.push({
      id: randomUUID(),
      occurredAt: now,
      topic: 'audit.recorded',
      action: effect.action,
      actorUserId: effect.actor.userId,
      actorUsername: effect.actor.username,
      targetUsername: after.username || kickUsername,
      details: kickUsername === '' ? {} : { kickUsername },
    });
  }
  return entries;
}
