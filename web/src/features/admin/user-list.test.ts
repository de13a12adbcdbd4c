import type { AdminUser } from './admin-api';
import { actionsFor, defaultUserListOptions, filterUsers, sortUsers, visibleUsers } from './user-list';

function aUser(overrides: Partial<AdminUser> & Pick<AdminUser, 'id' | 'username'>): AdminUser {
  return {
    email: `${overrides.username.toLowerCase()}@example.com`,
    role: 'USER',
    isActive: true,
    lastLogin: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    botEnabled: true,
    kickAccount: null,
    _count: { commands: 0 },
    ...overrides,
  };
}

const linked = { kickUsername: 'k', kickEmail: null, profilePicture: null, createdAt: '2026-01-02T00:00:00.000Z' };
const admin = aUser({ id: 'a', username: 'admin', role: 'SUPER_ADMIN', createdAt: '2025-12-01T00:00:00.000Z' });
const alice = aUser({
  id: 'b',
  username: 'Alice',
  email: 'alice@stream.example',
  createdAt: '2026-01-03T00:00:00.000Z',
  lastLogin: '2026-02-01T10:00:00.000Z',
  kickAccount: linked,
});
const bob = aUser({
  id: 'c',
  username: 'bob',
  email: 'robert@example.com',
  isActive: false,
  createdAt: '2026-01-02T00:00:00.000Z',
  lastLogin: '2026-02-05T10:00:00.000Z',
});
const carol = aUser({ id: 'd', username: 'carol', email: 'Carol@Example.com', createdAt: '2026-01-04T00:00:00.000Z' });
const everyone = [bob, admin, carol, alice];
const names = (users: AdminUser[]) => users.map((user) => user.username);

describe('user list filters (spec §5)', () => {
  test('when nothing is filtered, then everyone is listed', () => {
    expect(filterUsers(everyone, defaultUserListOptions)).toHaveLength(4);
  });

  test('when searching, then username or e-mail match case-insensitively, and spaces around are ignored', () => {
    const search = (text: string) => names(filterUsers(everyone, { ...defaultUserListOptions, search: text }));
    expect(search('ALI')).toEqual(['Alice']);
    expect(search('robert')).toEqual(['bob']);
    expect(search('  CAROL@example ')).toEqual(['carol']);
    expect(search('example.com')).toEqual(['bob', 'admin', 'carol']);
    expect(search('nobody')).toEqual([]);
  });

  test('when searching for regular-expression characters, then they match literally', () => {
    expect(filterUsers(everyone, { ...defaultUserListOptions, search: '.*' })).toEqual([]);
  });

  test('when the role filter is set, then only that role is listed', () => {
    expect(names(filterUsers(everyone, { ...defaultUserListOptions, role: 'SUPER_ADMIN' }))).toEqual(['admin']);
    expect(names(filterUsers(everyone, { ...defaultUserListOptions, role: 'USER' }))).toEqual([
      'bob',
      'carol',
      'Alice',
    ]);
  });

  test('when the status filter is set, then only active or inactive users are listed', () => {
    expect(names(filterUsers(everyone, { ...defaultUserListOptions, status: 'INACTIVE' }))).toEqual(['bob']);
    expect(names(filterUsers(everyone, { ...defaultUserListOptions, status: 'ACTIVE' }))).toEqual([
      'admin',
      'carol',
      'Alice',
    ]);
  });

  test('when search, role and status combine, then a user must pass all three', () => {
    const options = {
      ...defaultUserListOptions,
      search: 'example.com',
      role: 'USER' as const,
      status: 'ACTIVE' as const,
    };
    expect(names(filterUsers(everyone, options))).toEqual(['carol']);
  });
});

describe('user list sorting', () => {
  test('when nothing is chosen, then the newest account comes first (createdAt, descending)', () => {
    expect(names(visibleUsers(everyone, defaultUserListOptions))).toEqual(['carol', 'Alice', 'bob', 'admin']);
  });

  test('when sorting by createdAt ascending, then the oldest comes first', () => {
    expect(names(sortUsers(everyone, 'createdAt', 'asc'))).toEqual(['admin', 'bob', 'Alice', 'carol']);
  });

  test('when sorting by username, then letter case does not matter', () => {
    expect(names(sortUsers(everyone, 'username', 'asc'))).toEqual(['admin', 'Alice', 'bob', 'carol']);
    expect(names(sortUsers(everyone, 'username', 'desc'))).toEqual(['carol', 'bob', 'Alice', 'admin']);
  });

  test('when sorting by email, then the e-mail decides, not the name', () => {
    expect(names(sortUsers(everyone, 'email', 'asc'))).toEqual(['admin', 'Alice', 'carol', 'bob']);
  });

  test('when sorting by lastLogin, then never-signed-in users count as the oldest', () => {
    expect(names(sortUsers(everyone, 'lastLogin', 'desc'))).toEqual(['bob', 'Alice', 'carol', 'admin']);
    expect(names(sortUsers(everyone, 'lastLogin', 'asc'))).toEqual(['admin', 'carol', 'Alice', 'bob']);
  });

  test('when values tie, then the order is stable by id and the input is not changed', () => {
    const twins = [aUser({ id: 'z', username: 'twin' }), aUser({ id: 'y', username: 'twin' })];
    expect(sortUsers(twins, 'username', 'asc').map((user) => user.id)).toEqual(['y', 'z']);
    expect(twins.map((user) => user.id)).toEqual(['z', 'y']);
  });
});

describe('row actions (spec §2, §6)', () => {
  test('when the user is a super admin, then there are no actions', () => {
    expect(actionsFor(admin)).toEqual({ canToggleStatus: false, canToggleBot: false });
  });

  test('when a USER has a linked Kick account, then status and bot can be switched; without one, status only', () => {
    expect(actionsFor(alice)).toEqual({ canToggleStatus: true, canToggleBot: true });
    expect(actionsFor(bob)).toEqual({ canToggleStatus: true, canToggleBot: false });
  });
});
