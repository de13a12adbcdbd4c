import type { AuditEntry, SameType, Serialized } from '@kickstand/api-contract';
import { randomUUID } from 'node:crypto';
import type { Logger } from '@kickstand/platform/log';
import type { AuditRecorded } from '@kickstand/proto';
import { dateOf } from './timestamps';
import type { AuditEntryDoc, AuthRepository } from './repository';

export interface AuditActor {
  id: string;
  username: string;
}

/** Who acts when nobody signed in did: the first-start bootstrap and the admin:create command. */
export const systemActor: Readonly<AuditActor> = Object.freeze({ id: 'system', username: 'system' });

export interface AuditTarget {
  type: string;
  id: string;
  username: string;
}

export interface AuditEntryInput {
  /** Reuse the id of the event the action published, if any; a fresh one otherwise. */
  id?: string;
  occurredAt: Date;
  actor: AuditActor;
  action: string;
  target: AuditTarget;
  details?: Record<string, string>;
}

/** One audit log line as GET /api/admin/audit answers it. */
export interface AuditEntryView {
  id: string;
  action: string;
  actor: AuditActor;
  target: AuditTarget;
  details: Record<string, string>;
  createdAt: Date;
}

// The contract's audit entry is this view as JSON: a drift between the two fails to compile here.
const _auditEntryIsTheContracts: SameType<Serialized<AuditEntryView>, AuditEntry> = true;

export interface AuditLog {
  /** auth's own admin actions (user.activated, user.deactivated, admin.created, admin.promoted). */
  record(entry: AuditEntryInput): Promise<void>;
  /** An admin action another service reported on audit.recorded; a redelivery is stored once. */
  recordReported(message: AuditRecorded): Promise<void>;
  list(query: { action?: string; skip: number; limit: number }): Promise<{ logs: AuditEntryView[]; total: number }>;
  /** A channel's team events (editors invited, removed, and their changes), newest first. */
  listForChannel(ownerId: string, limit: number): Promise<AuditEntryView[]>;
}

export function toAuditEntryView(entry: AuditEntryDoc): AuditEntryView {
  return {
    id: entry._id,
    action: entry.action,
    actor: { id: entry.actor.id, username: entry.actor.username },
    target: { type: entry.target.type, id: entry.target.id, username: entry.target.username },
    details: entry.details,
    createdAt: entry.occurredAt,
  };
}

export function createAuditLog({ repo, log }: { repo: AuthRepository; log: Logger }): AuditLog {
  return {
    async record(entry) {
      await repo.auditLog.insert({
        _id: entry.id ?? randomUUID(),
        occurredAt: entry.occurredAt,
        actor: entry.actor,
        action: entry.action,
        target: entry.target,
        details: entry.details ?? {},
        source: 'auth',
      });
    },

    async recordReported(message) {
      if (!message.eventId || !message.action) {
        log.warn(
          { eventId: message.eventId, action: message.action },
          'audit.recorded without an event id or action: ignored',
        );
        return;
      }
      const isNew = await repo.auditLog.insert({
        _id: message.eventId,
        occurredAt: dateOf(message.occurredAt),
        actor: { id: message.actorUserId, username: message.actorUsername },
        action: message.action,
        target: { type: message.targetType, id: message.targetId, username: message.targetUsername },
        details: { ...message.details },
        source: 'audit.recorded',
      });
      if (!isNew) log.debug({ eventId: message.eventId }, 'audit.recorded delivered again: already in the log');
    },

    async list(query) {
      const { entries, total } = await repo.auditLog.list(query);
      return { logs: entries.map(toAuditEntryView), total };
    },

    async listForChannel(ownerId, limit) {
      return (await repo.auditLog.listForChannel(ownerId, limit)).map(toAuditEntryView);
    },
  };
}
