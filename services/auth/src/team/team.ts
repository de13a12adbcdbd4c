import { randomUUID } from 'node:crypto';
import {
  maxEditorsPerChannel,
  teamMessages,
  type EditableChannel,
  type SameType,
  type Serialized,
  type TeamEditor,
} from '@kickstand/api-contract';
import type { Identity } from '@kickstand/platform/auth';
import type { Clock } from '@kickstand/platform/clock';
import { AppError, badRequest, conflict, notFound } from '@kickstand/platform/errors';
import { DuplicateKeyError, type Collection, type Store } from '@kickstand/platform/store';
import type { AuditLog } from '../audit-log';

/** One editor of a channel, as auth keeps it. */
export interface EditorGrantDoc {
  userId: string;
  username: string;
  email: string;
  addedAt: Date;
}

/** A team.changed still to publish (the relay sends the document's current list). */
export interface PendingTeamChange {
  eventId: string;
  occurredAt: Date;
}

/** One channel owner's editors: the whole list, its version, and its outbox. */
export interface TeamDoc {
  _id: string;
  ownerUsername: string;
  /** Goes up by one at every change; the snapshot on team.changed carries it. */
  version: number;
  editors: EditorGrantDoc[];
  /** The editors' ids, for "which channels may I edit" (an array-contains match). */
  editorIds: string[];
  outbox: PendingTeamChange[];
}

export type TeamEditorView = Omit<EditorGrantDoc, never>;
export type EditableChannelView = { ownerUserId: string; ownerUsername: string; addedAt: Date };
// The contract's shapes are these views as JSON: a drift fails to compile here.
const _editorIsTheContracts: SameType<Serialized<TeamEditorView>, TeamEditor> = true;
const _channelIsTheContracts: SameType<Serialized<EditableChannelView>, EditableChannel> = true;

export const teamCollectionName = 'teams';
export const teamChangedMeanwhile = 'The editors were changed meanwhile. Reload and try again.';

/** What the team needs to know about an account found by e-mail. */
export interface AccountLookup {
  findByEmail(email: string): Promise<{ _id: string; username: string; email: string } | null>;
}

export interface Team {
  list(owner: Identity): Promise<TeamEditorView[]>;
  /** Adds the account of `email` as an editor of the owner's channel. */
  invite(owner: Identity, email: string): Promise<TeamEditorView>;
  remove(owner: Identity, editorUserId: string): Promise<TeamEditorView>;
  /** The channels `editor` may act for. */
  channelsOf(editor: Identity): Promise<EditableChannelView[]>;
}

export function teamCollection(store: Store): Collection<TeamDoc> {
  return store.collection<TeamDoc>(teamCollectionName);
}

/**
 * The owner's editors (issue 20 item 4). Each change writes the new list, its version and an
 * outbox entry in ONE update of the owner's document (conditional on the version read, so two
 * changes at once cannot lose one), then `publish(ownerId)` sends team.changed from the outbox.
 */
export function createTeam(deps: {
  teams: Collection<TeamDoc>;
  accounts: AccountLookup;
  audit: AuditLog;
  clock: Clock;
  publish(ownerId: string): Promise<void>;
}): Team {
  const { teams, accounts, audit, clock } = deps;

  /** The owner's change to the team, in the audit log with the editor it concerns. */
  function recordChange(
    action: 'team.editor.invited' | 'team.editor.removed',
    owner: Identity,
    editor: { id: string; username: string },
    now: Date,
  ): Promise<void> {
    return audit.record({
      occurredAt: now,
      actor: { id: owner.userId, username: owner.username },
      action,
      target: { type: 'user', ...editor },
      details: { channelOwnerId: owner.userId },
    });
  }

  async function write(owner: Identity, known: TeamDoc | null, editors: EditorGrantDoc[], now: Date): Promise<void> {
    const entry: PendingTeamChange = { eventId: randomUUID(), occurredAt: now };
    const state = { ownerUsername: owner.username, editors, editorIds: editors.map((editor) => editor.userId) };
    if (!known) {
      try {
        await teams.insertOne({ _id: owner.userId, ...state, version: 1, outbox: [entry] });
      } catch (error) {
        if (error instanceof DuplicateKeyError) throw conflict(teamChangedMeanwhile);
        throw error;
      }
    } else {
      const updated = await teams.updateOne(
        { _id: owner.userId, version: known.version },
        { $set: { ...state, version: known.version + 1 }, $push: { outbox: entry } },
      );
      if (updated.matchedCount === 0) throw conflict(teamChangedMeanwhile);
    }
    await deps.publish(owner.userId);
  }

  return {
    async list(owner) {
      return (await teams.findOne({ _id: owner.userId }))?.editors ?? [];
    },

    async invite(owner, email) {
      const account = await accounts.findByEmail(email);
      if (!account) throw notFound(teamMessages.unknownEmail);
      if (account._id === owner.userId) throw badRequest(teamMessages.selfInvite);
      const known = await teams.findOne({ _id: owner.userId });
      const editors = known?.editors ?? [];
      if (editors.some((editor) => editor.userId === account._id)) {
        throw new AppError({
          code: 'already-editor',
          status: 409,
          message: teamMessages.alreadyEditor(account.username),
        });
      }
      if (editors.length >= maxEditorsPerChannel) throw conflict(teamMessages.limitReached);
      const now = clock.now();
      const grant: EditorGrantDoc = {
        userId: account._id,
        username: account.username,
        email: account.email,
        addedAt: now,
      };
      await write(owner, known, [...editors, grant], now);
      await recordChange('team.editor.invited', owner, { id: account._id, username: account.username }, now);
      return grant;
    },

    async remove(owner, editorUserId) {
      const known = await teams.findOne({ _id: owner.userId });
      const removed = known?.editors.find((editor) => editor.userId === editorUserId);
      if (!known || !removed) throw notFound(teamMessages.editorNotFound);
      const now = clock.now();
      await write(
        owner,
        known,
        known.editors.filter((editor) => editor.userId !== editorUserId),
        now,
      );
      await recordChange('team.editor.removed', owner, { id: removed.userId, username: removed.username }, now);
      return removed;
    },

    async channelsOf(editor) {
      const owned = await teams.find({ editorIds: editor.userId }, { sort: { ownerUsername: 1 } });
      return owned.flatMap((team) =>
        team.editors
          .filter((grant) => grant.userId === editor.userId)
          .map((grant) => ({ ownerUserId: team._id, ownerUsername: team.ownerUsername, addedAt: grant.addedAt })),
      );
    },
  };
}
