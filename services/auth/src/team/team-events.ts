import { randomUUID } from 'node:crypto';
import type { KickstandBus } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { createOutboxRelay } from '@kickstand/platform/outbox';
import type { Collection } from '@kickstand/platform/store';
import { timestampFromDate } from '@kickstand/proto';
import type { PendingTeamChange, TeamDoc } from './team';

/**
 * How often every owner's editor list is announced again. Services keep team access in memory
 * only (see the platform's team-access.ts): an instance that starts knows no grant until the next
 * announcement, so this bounds how long an editor waits after a service restart; removals take
 * effect at once, as soon as the event is read.
 */
export const defaultTeamAnnounceMs = 60_000;

export interface TeamPublisher {
  /** Publishes the owner's pending team.changed; never throws (a failure stays for the retry). */
  flush(ownerId: string): Promise<void>;
  /** Every owner's list again, each with a fresh event id and its current version. Never throws. */
  announceAll(): Promise<void>;
  /** Pending changes and an announcement now, then both every `announceMs`. */
  start(): Promise<void>;
  stop(): void;
}

export function createTeamPublisher(deps: {
  teams: Collection<TeamDoc>;
  bus: KickstandBus;
  clock: Clock;
  log: Logger;
  announceMs?: number;
}): TeamPublisher {
  const { teams, bus, log } = deps;
  const publishSnapshot = (team: TeamDoc, eventId: string, occurredAt: Date) =>
    bus.publish('team.changed', team._id, {
      eventId,
      occurredAt: timestampFromDate(occurredAt),
      ownerUserId: team._id,
      ownerUsername: team.ownerUsername,
      // the list now, not when the change was queued: versions only go up, so it is the truth
      version: team.version,
      editors: team.editors.map((editor) => ({ userId: editor.userId, username: editor.username })),
    });
  const relay = createOutboxRelay<TeamDoc, PendingTeamChange>({
    collection: teams,
    idField: 'eventId',
    name: 'team.changed',
    log,
    retryMs: deps.announceMs ?? defaultTeamAnnounceMs,
    publish: (team, change) => publishSnapshot(team, change.eventId, change.occurredAt),
  });
  let timer: NodeJS.Timeout | undefined;

  async function announceAll(): Promise<void> {
    try {
      for (const team of await teams.find({})) await publishSnapshot(team, randomUUID(), deps.clock.now());
    } catch (err) {
      log.error({ err }, 'could not announce the editor lists; the next round tries again');
    }
  }

  return {
    flush: relay.flush,
    announceAll,
    async start() {
      await relay.start();
      await announceAll();
      clearInterval(timer);
      timer = setInterval(() => void announceAll(), deps.announceMs ?? defaultTeamAnnounceMs);
      timer.unref();
    },
    stop() {
      relay.stop();
      clearInterval(timer);
      timer = undefined;
    },
  };
}
