import { UserChangeKind, UserRole } from '@kickstand/proto';
import { startAuthForTest, unique, type ApiResponse, type SeedUser, type TestAuth } from './testing/test-utils';
import type { UserDoc } from './repository';

const expectError = (response: ApiResponse, status: number, error: string) => {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: expect.objectContaining({ success: false, error }),
  });
};

const minutes = (n: number) => n * 60_000;
const base = new Date('2026-02-01T10:00:00Z');
const at = (minute: number) => new Date(base.getTime() + minutes(minute));

const linkedKick = (name: string) => ({
  kickUserId: '4377088',
  kickUsername: name,
  kickEmail: `${name}@kick.example`,
  profilePicture: 'https://files.kick.example/p.png',
  linkedAt: at(100),
  needsRelink: false,
});

describe('auth admin doors', () => {
  let auth: TestAuth;
  let adminToken: string;
  let admin: UserDoc;
  beforeAll(async () => {
    auth = await startAuthForTest();
    ({ admin, token: adminToken } = await auth.seedAdmin());
  });
  afterAll(() => auth.close());

  const get = (path: string) => auth.request('GET', path, { token: adminToken });
  /** Users whose names start with a fresh tag, so each test lists only its own. */
  async function seedTagged(specs: Array<[string, SeedUser?]>): Promise<{ tag: string; users: UserDoc[] }> {
    const tag = `t${unique().slice(-6)}_`;
    const users: UserDoc[] = [];
    for (const [name, overrides] of specs) {
      users.push(await auth.seedUser({ username: `${tag}${name}`, email: `${tag}${name}@example.com`, ...overrides }));
    }
    return { tag, users };
  }
  const usernames = (response: ApiResponse, tag: string): string[] =>
    response.body.data.users.map((user: { username: string }) => user.username.slice(tag.length));

  describe('access', () => {
    test.each([
      ['GET', '/api/admin/users'],
      ['PATCH', '/api/admin/users/someone/status'],
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/anything-else'],
    ])('when a USER calls %s %s, then 403 "Administrator access required"', async (method, path) => {
      const user = await auth.seedUser();
      const body = method === 'GET' ? undefined : { isActive: false };
      const response = await auth.request(method, path, { token: auth.tokenFor(user), body });
      expectError(response, 403, 'Administrator access required');
    });

    test('when nobody is signed in, then 401 "Authentication required"', async () => {
      expectError(await auth.request('GET', '/api/admin/users'), 401, 'Authentication required');
    });

    test('when the token is malformed, then 401 "Invalid or expired token"', async () => {
      expectError(await auth.request('GET', '/api/admin/users', { token: 'x.y.z' }), 401, 'Invalid or expired token');
    });
  });

  describe('GET /api/admin/users', () => {
    test('when searching, then username and email match case-insensitively and each user has the spec fields', async () => {
      const { tag, users } = await seedTagged([
        ['Alice', { createdAt: at(1), lastLogin: at(50), kickAccount: linkedKick('alice_kick'), commandCount: 3 }],
        ['bob', { createdAt: at(2), botEnabled: false }],
      ]);
      const [alice] = users;

      const response = await get(`/api/admin/users?search=${encodeURIComponent(tag.toUpperCase() + 'ali')}`);

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: {
          users: [
            {
              id: alice?._id,
              username: `${tag}Alice`,
              email: `${tag}Alice@example.com`,
              role: 'USER',
              isActive: true,
              lastLogin: at(50).toISOString(),
              createdAt: at(1).toISOString(),
              botEnabled: true,
              kickAccount: {
                kickUsername: 'alice_kick',
                kickEmail: 'alice_kick@kick.example',
                profilePicture: 'https://files.kick.example/p.png',
                createdAt: at(100).toISOString(),
              },
              _count: { commands: 3 },
            },
          ],
          pagination: { page: 1, limit: 20, total: 1, pages: 1 },
        },
      });
      const byEmail = await get(`/api/admin/users?search=${encodeURIComponent(`${tag}BOB@EXAMPLE`)}`);
      expect(usernames(byEmail, tag)).toEqual(['bob']);
      expect(byEmail.body.data.users[0].botEnabled).toBe(false);
    });

    test('when the search has regular-expression characters, then they match literally', async () => {
      const { tag } = await seedTagged([['abc'], ['axc']]);
      const literal = await get(`/api/admin/users?search=${encodeURIComponent(`${tag}a.c`)}`);
      expect(literal.status).toBe(200);
      expect(literal.body.data.users).toEqual([]);
      for (const search of ['(', '.*', '[a-z]+', '\\', '$^']) {
        const response = await get(`/api/admin/users?search=${encodeURIComponent(search)}`);
        expect({ search, status: response.status, total: response.body.data.pagination.total }).toEqual({
          search,
          status: 200,
          total: 0,
        });
      }
    });

    test('when filtering by role and by status, then only those users come back', async () => {
      const { tag } = await seedTagged([
        ['user_on', { createdAt: at(1) }],
        ['user_off', { createdAt: at(2), isActive: false }],
        ['boss', { createdAt: at(3), role: 'SUPER_ADMIN' }],
      ]);
      const list = (query: string) => get(`/api/admin/users?search=${tag}&${query}`);
      expect(usernames(await list('role=SUPER_ADMIN'), tag)).toEqual(['boss']);
      expect(usernames(await list('role=USER'), tag)).toEqual(['user_off', 'user_on']);
      expect(usernames(await list('role=ALL'), tag)).toEqual(['boss', 'user_off', 'user_on']);
      expect(usernames(await list('status=INACTIVE'), tag)).toEqual(['user_off']);
      expect(usernames(await list('status=ACTIVE'), tag)).toEqual(['boss', 'user_on']);
      expect(usernames(await list('status=ACTIVE&role=USER'), tag)).toEqual(['user_on']);
      expect(usernames(await list('status=ALL'), tag)).toEqual(['boss', 'user_off', 'user_on']);
    });

    test('when hasKick=true, then only users with a linked Kick account (and hasKick=false the others)', async () => {
      const { tag } = await seedTagged([
        ['linked', { createdAt: at(1), kickAccount: linkedKick('k1') }],
        ['unlinked', { createdAt: at(2) }],
      ]);
      expect(usernames(await get(`/api/admin/users?search=${tag}&hasKick=true`), tag)).toEqual(['linked']);
      expect(usernames(await get(`/api/admin/users?search=${tag}&hasKick=false`), tag)).toEqual(['unlinked']);
    });

    test('when sorting, then by createdAt (default, newest first), username, email or lastLogin, either way', async () => {
      const { tag } = await seedTagged([
        ['b', { createdAt: at(1), email: 'zed@example.com', lastLogin: at(30) }],
        ['C', { createdAt: at(3), email: 'amy@example.com', lastLogin: null }],
        ['a', { createdAt: at(2), email: 'Max@example.com', lastLogin: at(10) }],
      ]);
      const sorted = async (query: string) => usernames(await get(`/api/admin/users?search=${tag}${query}`), tag);
      expect(await sorted('')).toEqual(['C', 'a', 'b']);
      expect(await sorted('&sort=createdAt&order=asc')).toEqual(['b', 'a', 'C']);
      expect(await sorted('&sort=username&order=asc')).toEqual(['a', 'b', 'C']);
      expect(await sorted('&sort=username')).toEqual(['C', 'b', 'a']);
      // the search matches the usernames; emails here do not carry the tag
      expect(await sorted('&sort=email&order=asc')).toEqual(['C', 'a', 'b']);
      expect(await sorted('&sort=email&order=desc')).toEqual(['b', 'a', 'C']);
      expect(await sorted('&sort=lastLogin&order=desc')).toEqual(['b', 'a', 'C']);
      expect(await sorted('&sort=lastLogin&order=asc')).toEqual(['C', 'a', 'b']);
    });

    test('when paging, then page and limit choose the slice and pagination counts the pages', async () => {
      const { tag } = await seedTagged(
        Array.from({ length: 25 }, (_, i): [string, SeedUser] => [
          `u${String(i).padStart(2, '0')}`,
          { createdAt: at(i) },
        ]),
      );
      const page = (query: string) => get(`/api/admin/users?search=${tag}&sort=username&order=asc&${query}`);

      const first = await page('');
      expect(first.body.data.users).toHaveLength(20);
      expect(first.body.data.pagination).toEqual({ page: 1, limit: 20, total: 25, pages: 2 });

      const second = await page('page=2&limit=10');
      expect(usernames(second, tag)).toEqual(['u10', 'u11', 'u12', 'u13', 'u14', 'u15', 'u16', 'u17', 'u18', 'u19']);
      expect(second.body.data.pagination).toEqual({ page: 2, limit: 10, total: 25, pages: 3 });

      const third = await page('page=3&limit=10');
      expect(usernames(third, tag)).toEqual(['u20', 'u21', 'u22', 'u23', 'u24']);

      const beyond = await page('page=9&limit=10');
      expect(beyond.body.data).toEqual({ users: [], pagination: { page: 9, limit: 10, total: 25, pages: 3 } });

      expect((await page('limit=200')).body.data.users).toHaveLength(25);
    });

    test.each([
      ['page=0', 'Page must be a whole number of 1 or more'],
      ['page=abc', 'Page must be a whole number of 1 or more'],
      ['page=1.5', 'Page must be a whole number of 1 or more'],
      ['limit=0', 'Limit must be a whole number from 1 to 200'],
      ['limit=201', 'Limit must be a whole number from 1 to 200'],
      ['role=ADMIN', 'Role must be one of ALL, USER, SUPER_ADMIN'],
      ['status=DISABLED', 'Status must be one of ALL, ACTIVE, INACTIVE'],
      ['sort=passwordHash', 'Sort must be one of createdAt, username, email, lastLogin'],
      ['order=up', 'Order must be one of asc, desc'],
      ['hasKick=yes', 'hasKick must be one of true, false'],
      ['search=a&search=b', 'Search must be text'],
      ['search[$ne]=x', 'Unrecognized key: "search[$ne]"'],
      ['isActive=true', 'Unrecognized key: "isActive"'],
    ])('when the query has %s, then 400 "%s"', async (query, error) => {
      expectError(await get(`/api/admin/users?${query}`), 400, error);
    });
  });

  describe('PATCH /api/admin/users/:id/status', () => {
    const patch = (id: string, body: unknown, token = adminToken) =>
      auth.request('PATCH', `/api/admin/users/${id}/status`, { token, body });

    test('when a user is deactivated, then the user comes back with the message, and user.changed and the audit say so', async () => {
      const user = await auth.seedUser();
      auth.clock.advance(1000);

      const response = await patch(user._id, { isActive: false });

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        message: 'User deactivated successfully',
        data: expect.objectContaining({ id: user._id, username: user.username, isActive: false }),
      });
      const published = auth.recorded.publishedWithKeys('user.changed').filter(({ key }) => key === user._id);
      expect(published.map(({ message }) => message)).toEqual([
        expect.objectContaining({
          userId: user._id,
          kind: UserChangeKind.DEACTIVATED,
          username: user.username,
          role: UserRole.USER,
          isActive: false,
        }),
      ]);
      const audit = await get(`/api/admin/audit?action=user.deactivated&limit=200`);
      expect(audit.body.data.logs).toContainEqual({
        id: published[0]?.message.eventId,
        action: 'user.deactivated',
        actor: { id: admin._id, username: admin.username },
        target: { type: 'user', id: user._id, username: user.username },
        details: {},
        createdAt: auth.clock.now().toISOString(),
      });
    });

    test('when a user is activated again, then "User activated successfully" and user.changed ACTIVATED', async () => {
      const user = await auth.seedUser({ isActive: false });
      const response = await patch(user._id, { isActive: true });
      expect(response.status).toBe(200);
      expect(response.body.message).toBe('User activated successfully');
      expect(response.body.data.isActive).toBe(true);
      const kinds = auth.recorded
        .published('user.changed')
        .filter((message) => message.userId === user._id)
        .map((message) => [message.kind, message.isActive]);
      expect(kinds).toEqual([[UserChangeKind.ACTIVATED, true]]);
    });

    test('when the user already has that state, then the same answer and nothing is published', async () => {
      const user = await auth.seedUser();
      const response = await patch(user._id, { isActive: true });
      expect(response.status).toBe(200);
      expect(response.body.message).toBe('User activated successfully');
      expect(auth.recorded.published('user.changed').filter((message) => message.userId === user._id)).toEqual([]);
    });

    test('when the target is a super admin, then 403 "Super admin accounts cannot be deactivated" and nothing changes', async () => {
      const other = await auth.seedUser({ role: 'SUPER_ADMIN' });
      const response = await patch(other._id, { isActive: false });
      expectError(response, 403, 'Super admin accounts cannot be deactivated');
      expect((await auth.repo.users.findById(other._id))?.isActive).toBe(true);
      expectError(await patch(admin._id, { isActive: false }), 403, 'Super admin accounts cannot be deactivated');
      expect(auth.recorded.published('user.changed').filter((m) => m.userId === other._id)).toEqual([]);
    });

    test('when the id is unknown, then 404 "User not found"', async () => {
      expectError(await patch('no-such-user', { isActive: false }), 404, 'User not found');
    });

    test.each([
      [{ isActive: 'false' }, 'isActive must be true or false'],
      [{}, 'isActive must be true or false'],
      [{ isActive: { $ne: true } }, 'isActive must be true or false'],
      [{ isActive: false, role: 'SUPER_ADMIN' }, 'Unrecognized key: "role"'],
    ])('when the body is %j, then 400 "%s"', async (body, error) => {
      const user = await auth.seedUser();
      expectError(await patch(user._id, body), 400, error);
      expect((await auth.repo.users.findById(user._id))?.isActive).toBe(true);
    });
  });

  describe('GET /api/admin/audit', () => {
    test('when admins act, then the log lists the actions newest first, pages them and filters by action', async () => {
      const fresh = await startAuthForTest();
      try {
        const { admin: boss, token } = await fresh.seedAdmin();
        const target = await fresh.seedUser();
        const act = async (isActive: boolean) => {
          fresh.clock.advance(1000);
          await fresh.request('PATCH', `/api/admin/users/${target._id}/status`, { token, body: { isActive } });
        };
        await act(false);
        await act(true);
        await act(false);

        const all = await fresh.request('GET', '/api/admin/audit', { token });
        expect(all.status).toBe(200);
        expect(all.body.data.pagination).toEqual({ page: 1, limit: 20, total: 3, pages: 1 });
        expect(all.body.data.logs.map((log: { action: string }) => log.action)).toEqual([
          'user.deactivated',
          'user.activated',
          'user.deactivated',
        ]);
        expect(all.body.data.logs[0]).toMatchObject({
          actor: { id: boss._id, username: boss.username },
          target: { type: 'user', id: target._id, username: target.username },
          createdAt: fresh.clock.now().toISOString(),
        });

        const paged = await fresh.request('GET', '/api/admin/audit?page=2&limit=2', { token });
        expect(paged.body.data.logs.map((log: { action: string }) => log.action)).toEqual(['user.deactivated']);
        expect(paged.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, pages: 2 });

        const filtered = await fresh.request('GET', '/api/admin/audit?action=user.activated', { token });
        expect(filtered.body.data.logs).toHaveLength(1);
        expect(filtered.body.data.pagination.total).toBe(1);
      } finally {
        await fresh.close();
      }
    });

    test.each([
      ['action=a%20b', 'Action must be a name such as user.deactivated'],
      ['limit=500', 'Limit must be a whole number from 1 to 200'],
      ['actor=x', 'Unrecognized key: "actor"'],
    ])('when the query has %s, then 400 "%s"', async (query, error) => {
      expectError(await get(`/api/admin/audit?${query}`), 400, error);
    });
  });
});
