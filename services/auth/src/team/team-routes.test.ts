import { actingChannelHeader, teamMessages } from '@kickstand/api-contract';
import { editorActionAudit } from '@kickstand/platform/auth';
import { eventually } from '@kickstand/platform/testing';
import { timestampFromDate } from '@kickstand/proto';
import type { UserDoc } from '../repository';
import { startAuthForTest, type ApiResponse, type TestAuth } from '../testing/test-utils';

const expectError = (response: ApiResponse, status: number, error: string) =>
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: expect.objectContaining({ success: false, error }),
  });

describe('team access: the owner’s editors (/api/team)', () => {
  let auth: TestAuth;
  let owner: UserDoc;
  let editor: UserDoc;
  let ownerToken: string;

  beforeAll(async () => {
    auth = await startAuthForTest();
  });
  afterAll(() => auth.close());
  beforeEach(async () => {
    owner = await auth.seedUser();
    editor = await auth.seedUser();
    ownerToken = auth.tokenFor(owner);
  });

  const invite = (email: string, token = ownerToken) =>
    auth.request('POST', '/api/team/editors', { token, body: { email } });
  const snapshotsOf = (ownerId: string) =>
    auth.recorded
      .publishedWithKeys('team.changed')
      .filter(({ key }) => key === ownerId)
      .map(({ message }) => ({ version: message.version, editors: message.editors.map((e) => e.userId) }));

  test('when the owner invites an existing account by e-mail, then it is listed, announced and audited', async () => {
    const response = await invite(editor.email.toUpperCase());
    const grant = {
      userId: editor._id,
      username: editor.username,
      email: editor.email,
      addedAt: auth.clock.now().toISOString(),
    };
    expect({ status: response.status, body: response.body }).toEqual({
      status: 201,
      body: { success: true, message: `${editor.username} can now edit your channel`, data: grant },
    });
    expect((await auth.request('GET', '/api/team/editors', { token: ownerToken })).body).toEqual({
      success: true,
      data: [grant],
    });
    expect((await auth.request('GET', '/api/team/channels', { token: auth.tokenFor(editor) })).body).toEqual({
      success: true,
      data: [{ ownerUserId: owner._id, ownerUsername: owner.username, addedAt: grant.addedAt }],
    });
    expect(snapshotsOf(owner._id)).toEqual([{ version: 1, editors: [editor._id] }]);
    const { logs } = await auth.repo.auditLog
      .list({ action: 'team.editor.invited', skip: 0, limit: 50 })
      .then((page) => ({
        logs: page.entries.filter((entry) => entry.actor.id === owner._id),
      }));
    expect(logs.map(({ actor, target }) => ({ actor, target }))).toEqual([
      {
        actor: { id: owner._id, username: owner.username },
        target: { type: 'user', id: editor._id, username: editor.username },
      },
    ]);
  });

  test('when the account is already an editor, then 409 and nothing is announced again', async () => {
    await invite(editor.email);
    expectError(await invite(editor.email), 409, teamMessages.alreadyEditor(editor.username));
    expect(snapshotsOf(owner._id)).toHaveLength(1);
  });

  test('when no account uses the e-mail, then 404 with a clear message', async () => {
    expectError(await invite('nobody-here@example.com'), 404, teamMessages.unknownEmail);
  });

  test('when the owner invites themselves, then 400', async () => {
    expectError(await invite(owner.email), 400, teamMessages.selfInvite);
  });

  test('when the e-mail is malformed, then 400', async () => {
    expect((await invite('not-an-email')).status).toBe(400);
  });

  test('when the owner removes an editor, then the list is empty, the removal is announced and audited', async () => {
    await invite(editor.email);
    const response = await auth.request('DELETE', `/api/team/editors/${editor._id}`, { token: ownerToken });
    expect({ status: response.status, message: response.body.message }).toEqual({
      status: 200,
      message: `${editor.username} can no longer edit your channel`,
    });
    expect((await auth.request('GET', '/api/team/editors', { token: ownerToken })).body.data).toEqual([]);
    expect((await auth.request('GET', '/api/team/channels', { token: auth.tokenFor(editor) })).body.data).toEqual([]);
    expect(snapshotsOf(owner._id)).toEqual([
      { version: 1, editors: [editor._id] },
      { version: 2, editors: [] },
    ]);
    const page = await auth.repo.auditLog.list({ action: 'team.editor.removed', skip: 0, limit: 50 });
    expect(page.entries.filter((entry) => entry.actor.id === owner._id).map((entry) => entry.target.id)).toEqual([
      editor._id,
    ]);
    expectError(
      await auth.request('DELETE', `/api/team/editors/${editor._id}`, { token: ownerToken }),
      404,
      teamMessages.editorNotFound,
    );
  });

  test('when an editor acts for the owner on the editors routes, then 403: editors never manage editors', async () => {
    await invite(editor.email);
    const asEditor = { token: auth.tokenFor(editor), headers: { [actingChannelHeader]: owner._id } };
    // auth's own read model learns the grant from team.changed, as every service does
    await eventually(async () =>
      expectError(await auth.request('GET', '/api/team/editors', asEditor), 403, teamMessages.editorNotAllowed),
    );
    expectError(
      await auth.request('POST', '/api/team/editors', { ...asEditor, body: { email: editor.email } }),
      403,
      teamMessages.editorNotAllowed,
    );
    expectError(await auth.request('GET', '/api/platform/profile', asEditor), 403, teamMessages.editorNotAllowed);
  });

  test('when an editor changed something, then the owner’s team log shows it with who did it, newest first', async () => {
    await invite(editor.email);
    const invitedAt = auth.clock.now().toISOString();
    const changedAt = new Date(auth.clock.now().getTime() + 60_000);
    // what the platform publishes when an editor's change succeeds (see the platform's team-access.ts)
    await auth.bus.publish('audit.recorded', owner._id, {
      eventId: `acted-${owner._id}`,
      occurredAt: timestampFromDate(changedAt),
      actorUserId: editor._id,
      actorUsername: editor.username,
      action: editorActionAudit,
      targetType: 'user',
      targetId: owner._id,
      targetUsername: owner.username,
      details: {
        channelOwnerId: owner._id,
        method: 'PATCH',
        path: '/api/commands/hello',
        status: '200',
        service: 'commands',
      },
    });
    await eventually(async () =>
      expect((await auth.request('GET', '/api/team/activity', { token: ownerToken })).body).toEqual({
        success: true,
        data: [
          {
            id: `acted-${owner._id}`,
            action: 'team.editor.acted',
            actor: { id: editor._id, username: editor.username },
            target: { type: 'user', id: owner._id, username: owner.username },
            details: {
              channelOwnerId: owner._id,
              method: 'PATCH',
              path: '/api/commands/hello',
              status: '200',
              service: 'commands',
            },
            createdAt: changedAt.toISOString(),
          },
          {
            id: expect.any(String),
            action: 'team.editor.invited',
            actor: { id: owner._id, username: owner.username },
            target: { type: 'user', id: editor._id, username: editor.username },
            details: { channelOwnerId: owner._id },
            createdAt: invitedAt,
          },
        ],
      }),
    );
    // the editor's own channel has no such log
    expect((await auth.request('GET', '/api/team/activity', { token: auth.tokenFor(editor) })).body.data).toEqual([]);
  });
});
