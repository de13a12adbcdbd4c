import type { AdminRole, AdminUser } from './admin-api';

// The user page's list logic (spec §2 and §5): one fetched page, filtered and sorted in the browser.

export type RoleFilter = 'ALL' | AdminRole;
export type StatusFilter = 'ALL' | 'ACTIVE' | 'INACTIVE';
export type UserSortField = 'createdAt' | 'username' | 'email' | 'lastLogin';
export type SortOrder = 'asc' | 'desc';

export interface UserListOptions {
  search: string;
  role: RoleFilter;
  status: StatusFilter;
  sort: UserSortField;
  order: SortOrder;
}

/** The spec's defaults: everyone, newest first. */
export const defaultUserListOptions: UserListOptions = {
  search: '',
  role: 'ALL',
  status: 'ALL',
  sort: 'createdAt',
  order: 'desc',
};

export const roleFilters: readonly RoleFilter[] = ['ALL', 'SUPER_ADMIN', 'USER'];
export const statusFilters: readonly StatusFilter[] = ['ALL', 'ACTIVE', 'INACTIVE'];
export const userSortFields: ReadonlyArray<{ value: UserSortField; label: string }> = [
  { value: 'createdAt', label: 'Created' },
  { value: 'username', label: 'Username' },
  { value: 'email', label: 'Email' },
  { value: 'lastLogin', label: 'Last login' },
];

/** Search text matches username or e-mail, case-insensitively; role and status must match when set. */
export function filterUsers(
  users: readonly AdminUser[],
  { search, role, status }: Pick<UserListOptions, 'search' | 'role' | 'status'>,
): AdminUser[] {
  const needle = search.trim().toLowerCase();
  return users.filter(
    (user) =>
      (needle === '' || user.username.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle)) &&
      (role === 'ALL' || user.role === role) &&
      (status === 'ALL' || user.isActive === (status === 'ACTIVE')),
  );
}

/** A date as a number for sorting; never signed in (null) sorts as the oldest. */
const timeOf = (value: string | null): number => (value === null ? -Infinity : Date.parse(value));

function compareBy(field: UserSortField): (a: AdminUser, b: AdminUser) => number {
  switch (field) {
    case 'createdAt':
    case 'lastLogin':
      return (a, b) => {
        const [x, y] = [timeOf(a[field]), timeOf(b[field])];
        return x === y ? 0 : x < y ? -1 : 1;
      };
    case 'username':
    case 'email':
      return (a, b) => a[field].localeCompare(b[field], undefined, { sensitivity: 'base' });
  }
}

/** A new array sorted by the field in the order; ties keep a stable order by id, so rows never jump. */
export function sortUsers(users: readonly AdminUser[], field: UserSortField, order: SortOrder): AdminUser[] {
  const compare = compareBy(field);
  const direction = order === 'asc' ? 1 : -1;
  return [...users].sort((a, b) => direction * (compare(a, b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
}

/** What the table shows: filtered, then sorted. */
export const visibleUsers = (users: readonly AdminUser[], options: UserListOptions): AdminUser[] =>
  sortUsers(filterUsers(users, options), options.sort, options.order);

/** Which actions a row offers: none for a super admin; the bot switch only with a linked Kick account. */
export function actionsFor(user: AdminUser): { canToggleStatus: boolean; canToggleBot: boolean } {
  if (user.role === 'SUPER_ADMIN') return { canToggleStatus: false, canToggleBot: false };
  return { canToggleStatus: true, canToggleBot: user.kickAccount !== null };
}

/** The role a user's role button gives (USER ↔ SUPER_ADMIN). */
export const otherRole = (user: Pick<AdminUser, 'role'>): AdminUser['role'] =>
  user.role === 'SUPER_ADMIN' ? 'USER' : 'SUPER_ADMIN';
