import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Router } from 'express';
import { actingChannelHeader, teamMessages } from '@kickstand/api-contract';
import { UserChangeKind, UserRole } from '@kickstand/proto';
import { createHttpApp } from '../http';
import { createFakeClock } from '../testing/fake-clock';
import { createTestPlatform, type TestPlatform } from '../testing/test-platform';
import { eventually } from '../testing/eventually';
import type { TopicMessage } from '../bus';
import { currentUser, requireAdmin, requireUser } from './current-user';
import { createTeamAccess, editorActionAudit } from './team-access';
import type { Identity } from './tokens';

const owner: Identity = { userId: 'u-owner', username: 'owner', role: 'USER' };
const editor: Identity = { userId: 'u-editor', username: 'editor', role: 'USER' };
const stranger: Identity = { userId: 'u-stranger', username: 'stranger', role: 'USER' };

describe('team access: the read model', () => {
  const snapshot = (version: number, editorIds: string[]) => ({
    $typeName: 'kickstand.events.v1.TeamChanged' as const,
    eventId: `e-${version}`,
    ownerUserId: 'u-owner',
    ownerUsername: 'owner',
    version,
    editors: editorIds.map((userId) => ({
      $typeName: 'kickstand.events.v1.TeamEditor' as const,
      userId,
      username: userId,
    })),
  });

  test('when a newer snapshot was applied, then an older one delivered late changes nothing', () => {
    const team = createTeamAccess();
    team.apply(snapshot(2, []));
    team.apply(snapshot(1, ['u-editor']));
    expect(team.editorOf('u-editor', 'u-owner')).toBeUndefined();
    team.apply(snapshot(3, ['u-editor']));
    expect(team.editorOf('u-editor', 'u-owner')).toEqual({ ownerUsername: 'owner' });
    expect(team.editorOf('u-editor', 'u-other')).toBeUndefined();
  });
});

describe('team access: the acting-for check in requireUser', () => {
  let platform: TestPlatform;
  let server: Server;
  let url: string;
  let version = 0;
  const clock = createFakeClock(new Date('2026-06-01T12:00:00Z'));

  const grant = async (editorIds: string[]) => {
    version += 1;
    await platform.bus.publish('team.changed', owner.userId, {
      eventId: `t-${version}`,
      ownerUserId: owner.userId,
      ownerUsername: owner.username,
      version,
      editors: editorIds.map((userId) => ({ userId, username: userId })),
    });
  };
  const call = (method: string, path: string, caller: Identity, channel?: string) =>
    fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${platform.signToken(caller)}`,
        ...(channel !== undefined ? { [actingChannelHeader]: channel } : {}),
      },
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }));

  beforeEach(async () => {
    platform = await createTestPlatform('commands', { clock });
    const router = Router();
    router.use('/api/commands', requireUser(platform.tokens));
    router.get('/api/commands', (req, res) => {
      res.json({ caller: currentUser(req), editor: req.actingEditor?.userId ?? null });
    });
    router.post('/api/commands', (req, res) => {
      res.status(201).json({ caller: currentUser(req).userId });
    });
    router.post('/api/commands/broken', () => {
      throw new Error('the handler failed');
    });
    router.post('/api/platform/kick/unlink', requireUser(platform.tokens), (req, res) => {
      res.json({ caller: currentUser(req).userId });
    });
    router.get('/api/team/editors', requireUser(platform.tokens), (req, res) => {
      res.json({ caller: currentUser(req).userId });
    });
    router.get('/api/admin/users', requireAdmin(platform.tokens), (req, res) => {
      res.json({ caller: currentUser(req).userId });
    });
    const app = createHttpApp({ service: 'commands', log: platform.log, routes: [router], readiness: [] });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await grant([editor.userId]);
  });
  afterEach(async () => {
    server.close();
    await platform.close();
  });

  test('when the header is absent, then the caller acts for their own channel', async () => {
    expect(await call('GET', '/api/commands', editor)).toEqual({
      status: 200,
      body: { caller: editor, editor: null },
    });
  });

  test('when the header names the caller, then it is their own channel', async () => {
    expect(await call('GET', '/api/commands', owner, owner.userId)).toEqual({
      status: 200,
      body: { caller: owner, editor: null },
    });
  });

  test('when an editor acts for the owner on an editor route, then the handler sees the owner', async () => {
    expect(await call('GET', '/api/commands', editor, owner.userId)).toEqual({
      status: 200,
      body: { caller: owner, editor: editor.userId },
    });
  });

  test.each([
    ['POST', '/api/platform/kick/unlink'],
    ['GET', '/api/team/editors'],
  ])('when an editor acts for the owner on %s %s, then 403 with the owner-only message', async (method, path) => {
    expect(await call(method, path, editor, owner.userId)).toEqual({
      status: 403,
      body: { success: false, error: teamMessages.editorNotAllowed },
    });
  });

  test('when an administrator sends the header to an admin route, then 403', async () => {
    const admin: Identity = { userId: 'u-admin', username: 'root', role: 'SUPER_ADMIN' };
    expect((await call('GET', '/api/admin/users', admin, owner.userId)).status).toBe(403);
    expect(await call('GET', '/api/admin/users', admin)).toEqual({ status: 200, body: { caller: 'u-admin' } });
  });

  test('when a user who is not an editor acts for the owner, then 403', async () => {
    expect(await call('GET', '/api/commands', stranger, owner.userId)).toEqual({
      status: 403,
      body: { success: false, error: teamMessages.notAnEditor },
    });
  });

  test('when the owner removed the editor, then their next request is refused', async () => {
    await grant([]);
    await eventually(async () =>
      expect(await call('GET', '/api/commands', editor, owner.userId)).toEqual({
        status: 403,
        body: { success: false, error: teamMessages.notAnEditor },
      }),
    );
  });

  test('when the owner is deactivated, then nobody acts for the channel', async () => {
    await platform.bus.publish('user.changed', owner.userId, {
      eventId: 'd-1',
      userId: owner.userId,
      kind: UserChangeKind.DEACTIVATED,
      role: UserRole.USER,
      isActive: false,
      tokenVersion: 0,
    });
    await eventually(async () => expect((await call('GET', '/api/commands', editor, owner.userId)).status).toBe(403));
  });

  test('when the header is not a user id, then 400', async () => {
    expect(await call('GET', '/api/commands', editor, '../u owner')).toEqual({
      status: 400,
      body: { success: false, error: teamMessages.invalidChannel },
    });
  });

  test('when an editor changes something, then audit.recorded names the editor as actor and the owner as target', async () => {
    const audited: Array<TopicMessage<'audit.recorded'>> = [];
    await platform.bus.subscribe('audit.recorded', 'test-audit', async (message) => {
      audited.push(message);
    });
    expect(await call('POST', '/api/commands', editor, owner.userId)).toEqual({
      status: 201,
      body: { caller: owner.userId },
    });
    expect((await call('POST', '/api/commands/broken', editor, owner.userId)).status).toBe(500);
    await call('GET', '/api/commands', editor, owner.userId);
    await call('POST', '/api/commands', owner);
    await eventually(() => expect(audited).toHaveLength(1));
    expect(audited).toEqual([
      expect.objectContaining({
        actorUserId: editor.userId,
        actorUsername: editor.username,
        action: editorActionAudit,
        targetType: 'user',
        targetId: owner.userId,
        targetUsername: owner.username,
        details: {
          channelOwnerId: owner.userId,
          method: 'POST',
          path: '/api/commands',
          status: '201',
          service: 'commands',
        },
      }),
    ]);
  });
});
