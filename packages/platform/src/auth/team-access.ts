import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { actingChannelHeader, isEditorRoute, teamMessages } from '@kickstand/api-contract';
import { timestampFromDate, type TeamChanged } from '@kickstand/proto';
import { instanceGroup, type KickstandBus, type Subscription } from '../bus';
import type { Clock } from '../clock';
import { badRequest, forbidden } from '../errors';
import type { Logger } from '../log';
import type { Identity } from './tokens';

declare module 'http' {
  interface IncomingMessage {
    /** Set by requireUser when the caller acts for another channel: the editor who really called. */
    actingEditor?: Identity;
  }
}

/** One owner's editors as team.changed last said. */
interface TeamState {
  ownerUsername: string;
  version: number;
  editorIds: ReadonlySet<string>;
}

/**
 * Every service's read model of team access: which user may act for which channel owner, fed by
 * team.changed (auth publishes the owner's whole list at every change and re-announces every list
 * periodically). Deliberately kept in memory only: an instance that (re)starts knows no grant until
 * the next announcement, so a removal it missed while down can never leave an editor in (it fails
 * closed for at most auth's re-announce interval).
 */
export interface TeamAccess {
  /** Applies a snapshot unless an equal-or-newer one was applied; idempotent. */
  apply(change: TeamChanged): void;
  /** The owner's username when `editorId` may act for `ownerId` now; undefined otherwise. */
  editorOf(editorId: string, ownerId: string): { ownerUsername: string } | undefined;
}

export function createTeamAccess(): TeamAccess {
  const teams = new Map<string, TeamState>();
  return {
    apply(change) {
      if (change.ownerUserId === '') return; // proto3 cannot require it; nothing to act on without it
      const known = teams.get(change.ownerUserId);
      if (known && known.version > change.version) return;
      teams.set(change.ownerUserId, {
        ownerUsername: change.ownerUsername,
        version: change.version,
        editorIds: new Set(change.editors.map((editor) => editor.userId)),
      });
    },
    editorOf(editorId, ownerId) {
      const team = teams.get(ownerId);
      return team?.editorIds.has(editorId) ? { ownerUsername: team.ownerUsername } : undefined;
    },
  };
}

/** The read model's group: one per instance (`<service>.instance.<id>.team-access`), like user-access's. */
export const teamAccessGroup = (service: string, instanceId: string): string =>
  instanceGroup(service, `${instanceId}.team-access`);

/** Feeds the read model from team.changed. */
export function subscribeTeamAccess(
  bus: KickstandBus,
  service: string,
  instanceId: string,
  team: TeamAccess,
): Promise<Subscription> {
  return bus.subscribe('team.changed', teamAccessGroup(service, instanceId), async (change) => team.apply(change));
}

/** A change an editor made for a channel owner, as the audit log keeps it. */
export interface EditorAction {
  editor: Identity;
  owner: { userId: string; username: string };
  method: string;
  path: string;
  status: number;
}

/** What requireUser needs to let a caller act for another channel. */
export interface TeamGate {
  team: Pick<TeamAccess, 'editorOf'>;
  /** The owner's account is deactivated or deleted: nobody acts for it. */
  isShutOut(userId: string): boolean;
  /** Reports a successful change by an editor to the audit log (audit.recorded). Never throws. */
  recordEditorAction(action: EditorAction): void;
}

export const editorActionAudit = 'team.editor.acted';

/** Publishes each editor action on audit.recorded (auth keeps the log), keyed by the owner. */
export function createEditorActionRecorder(deps: {
  bus: KickstandBus;
  clock: Clock;
  log: Logger;
  service: string;
}): TeamGate['recordEditorAction'] {
  return (action) => {
    const eventId = randomUUID();
    deps.bus
      .publish('audit.recorded', action.owner.userId, {
        eventId,
        occurredAt: timestampFromDate(deps.clock.now()),
        actorUserId: action.editor.userId,
        actorUsername: action.editor.username,
        action: editorActionAudit,
        targetType: 'user',
        targetId: action.owner.userId,
        targetUsername: action.owner.username,
        details: {
          channelOwnerId: action.owner.userId,
          method: action.method,
          path: action.path,
          status: String(action.status),
          service: deps.service,
        },
      })
      .catch((err: unknown) =>
        deps.log.error(
          { err, eventId, editor: action.editor.userId },
          'could not record an editor action in the audit log',
        ),
      );
  };
}

const userIdPattern = /^[A-Za-z0-9_-]{1,128}$/;
const readOnlyMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The path a request matched, without its query string (originalUrl: routers strip their mount path from req.path). */
function requestPath(req: Request): string {
  const url = req.originalUrl || req.url;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * THE acting-for check, for every service's signed-in routes: without `X-Kickstand-Channel` (or
 * with the caller's own id) the caller acts for themselves; otherwise the route must be one an
 * editor may use (the contract's editorRoutePrefixes) and the caller an editor of that owner now.
 * Then the handlers see the owner as the caller (`currentUser(req).userId` is the owner's id, role
 * USER) and `req.actingEditor` names the editor; a successful change is reported to the audit log.
 */
export function resolveActingFor(gate: TeamGate | undefined, caller: Identity, req: Request, res: Response): Identity {
  const channel = req.headers[actingChannelHeader];
  if (channel === undefined || channel === caller.userId) return caller;
  if (typeof channel !== 'string' || !userIdPattern.test(channel)) throw badRequest(teamMessages.invalidChannel);
  const path = requestPath(req);
  if (!isEditorRoute(path)) throw forbidden(teamMessages.editorNotAllowed);
  const grant = gate?.team.editorOf(caller.userId, channel);
  if (!gate || !grant || gate.isShutOut(channel)) throw forbidden(teamMessages.notAnEditor);
  const owner = { userId: channel, username: grant.ownerUsername };
  req.actingEditor = caller;
  if (!readOnlyMethods.has(req.method)) {
    res.once('finish', () => {
      if (res.statusCode < 400) {
        gate.recordEditorAction({ editor: caller, owner, method: req.method, path, status: res.statusCode });
      }
    });
  }
  return { userId: owner.userId, username: owner.username, role: 'USER' };
}
