import { UserChangeKind, UserRole } from '@kickstand/proto';
import { startAuthForTest, type TestAuth } from './testing/test-utils';
import type { UserDoc } from './repository';

// its own auth, so that the seeded administrator is the only super administrator there is
describe('PATCH /api/admin/users/:id/role', () => {
  let auth: TestAuth;
  let admin: UserDoc;
  let adminToken: string;
  beforeAll(async () => {
    auth = await startAuthForTest();
    ({ admin, token: adminToken } = await auth.seedAdmin());
  });
  afterAll(() => auth.close());

  const setRole = (id: string, body: unknown, token = adminToken) =>
    auth.request('PATCH', `/api/admin/users/${id}/role`, { token, body });

  test('when the only super admin would become a user, then 409 and nothing changes', async () => {
    const response = await setRole(admin._id, { role: 'USER' });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 409,
      body: { success: false, error: 'The last super admin cannot become a user' },
    });
    const published = auth.recorded.publishedWithKeys('user.changed').filter(({ key }) => key === admin._id);
    expect(published.map(({ message }) => message.kind)).not.toContain(UserChangeKind.ROLE_CHANGED);
  });

  test('when a user is made super admin and back, then each answers the user, user.changed ROLE_CHANGED carries the role, and the audit names from and to', async () => {
    const user = await auth.seedUser();
    auth.clock.advance(1000);

    const promoted = await setRole(user._id, { role: 'SUPER_ADMIN' });
    const demoted = await setRole(user._id, { role: 'USER' });

    expect(promoted.status).toBe(200);
    expect(promoted.body).toEqual({
      success: true,
      message: 'Role changed successfully',
      data: expect.objectContaining({ id: user._id, role: 'SUPER_ADMIN' }),
    });
    expect(demoted.body.data).toEqual(expect.objectContaining({ id: user._id, role: 'USER' }));
    const changes = auth.recorded
      .publishedWithKeys('user.changed')
      .filter(({ key, message }) => key === user._id && message.kind === UserChangeKind.ROLE_CHANGED)
      .map(({ message }) => message.role);
    expect(changes).toEqual([UserRole.SUPER_ADMIN, UserRole.USER]);
    const audit = await auth.request('GET', '/api/admin/audit?action=user.role-changed&limit=200', {
      token: adminToken,
    });
    const entries = (audit.body.data.logs as Array<{ target: { id: string }; details: Record<string, string> }>)
      .filter((entry) => entry.target.id === user._id)
      .map((entry) => entry.details);
    expect(entries).toEqual(
      expect.arrayContaining([
        { from: 'USER', to: 'SUPER_ADMIN' },
        { from: 'SUPER_ADMIN', to: 'USER' },
      ]),
    );
    expect(entries).toHaveLength(2);
  });

  test('when the role is the one the user has, then 200 and nothing is published', async () => {
    const user = await auth.seedUser();
    const response = await setRole(user._id, { role: 'USER' });
    expect(response.status).toBe(200);
    expect(auth.recorded.publishedWithKeys('user.changed').filter(({ key }) => key === user._id)).toEqual([]);
  });

  test('when the role is not USER or SUPER_ADMIN, then 400 naming both; an unknown user is 404', async () => {
    const user = await auth.seedUser();
    const bad = await setRole(user._id, { role: 'OWNER' });
    expect({ status: bad.status, error: bad.body.error }).toEqual({
      status: 400,
      error: 'Role must be one of USER, SUPER_ADMIN',
    });
    const unknown = await setRole('no-such-user', { role: 'USER' });
    expect({ status: unknown.status, error: unknown.body.error }).toEqual({ status: 404, error: 'User not found' });
  });

  test('when a USER asks, then 403', async () => {
    const user = await auth.seedUser();
    const token = auth.tokenFor(user);
    expect((await setRole(user._id, { role: 'SUPER_ADMIN' }, token)).status).toBe(403);
  });
});
