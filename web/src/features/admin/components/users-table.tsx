import { useEffect, useId, useMemo, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { adminUserFetch } from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import {
  setBotEnabledInList,
  useChangeRoleMutation,
  useDisableBotMutation,
  useEnableBotMutation,
  useGetUsersQuery,
  useUpdateUserStatusMutation,
  type AdminUser,
  type GetUsersArgs,
} from '../admin-api';
import { formatDateTime } from '../format';
import {
  actionsFor,
  defaultUserListOptions,
  otherRole,
  roleFilters,
  statusFilters,
  userSortFields,
  visibleUsers,
  type RoleFilter,
  type SortOrder,
  type StatusFilter,
  type UserListOptions,
  type UserSortField,
} from '../user-list';
import { LoadError } from './load-error';
import { Pager } from './pager';

/** Typing pauses this long before the search goes to the server. */
const searchDelayMs = 300;

/** `value`, once it stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * /admin/users: search, role and status filters, sort, the per-user actions (spec §2), and pages of
 * 200: the first fetch is the spec's (page 1, 200 users); a search asks the server, and the pager
 * walks the pages. Filters and sort apply to the page shown.
 */
export function UserManagement() {
  const [options, setOptions] = useState<UserListOptions>(defaultUserListOptions);
  const [page, setPage] = useState<number>(adminUserFetch.page);
  const search = useSettled(options.search.trim(), searchDelayMs);
  const usersArgs: GetUsersArgs = { page, limit: adminUserFetch.limit, ...(search ? { search } : {}) };
  const { data, isLoading, isError, error, refetch, isFetching } = useGetUsersQuery(usersArgs);
  const users = useMemo(() => visibleUsers(data?.users ?? [], options), [data, options]);
  const set = <K extends keyof UserListOptions>(key: K, value: UserListOptions[K]) =>
    setOptions((current) => ({ ...current, [key]: value }));
  // a new search starts at its first page
  useEffect(() => setPage(adminUserFetch.page), [search]);
  const ids = useId();

  return (
    <section className="admin-section" aria-labelledby={`${ids}-title`}>
      <div className="admin-section-header">
        <div>
          <h1 id={`${ids}-title`}>User Management</h1>
          <p className="muted">Activate or deactivate streamers and switch their bots on or off.</p>
        </div>
        <button type="button" className="button button-outline" onClick={() => refetch()} disabled={isFetching}>
          Refresh
        </button>
      </div>

      <div className="card admin-filters" role="search">
        <label className="field admin-filter-search">
          <span className="field-label">Search users</span>
          <input
            type="search"
            placeholder="Username or e-mail"
            value={options.search}
            onChange={(event) => set('search', event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-label">Role</span>
          <select value={options.role} onChange={(event) => set('role', event.target.value as RoleFilter)}>
            {roleFilters.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Status</span>
          <select value={options.status} onChange={(event) => set('status', event.target.value as StatusFilter)}>
            {statusFilters.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Sort by</span>
          <select value={options.sort} onChange={(event) => set('sort', event.target.value as UserSortField)}>
            {userSortFields.map((field) => (
              <option key={field.value} value={field.value}>
                {field.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Order</span>
          <select value={options.order} onChange={(event) => set('order', event.target.value as SortOrder)}>
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </label>
      </div>

      {isLoading ? (
        <Spinner label="Loading users" />
      ) : isError ? (
        <LoadError message={errorMessage(error, 'Failed to load users')} onRetry={refetch} />
      ) : users.length === 0 ? (
        <div className="card empty-state">
          <p className="empty-title">No users found</p>
          <p className="muted">Try adjusting your search or filter criteria.</p>
        </div>
      ) : (
        <>
          <p className="muted small" aria-live="polite">
            Showing {users.length} of {data?.users.length ?? 0} users
          </p>
          <div className="table-scroll card">
            <table className="admin-table admin-users-table">
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Kick</th>
                  <th scope="col">Bot</th>
                  <th scope="col">Commands</th>
                  <th scope="col">Last login</th>
                  <th scope="col">Created</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {users.map((user) => (
                  <UserRow key={user.id} user={user} listArgs={usersArgs} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <Pager
        label="User pages"
        page={page}
        pages={data?.pagination.pages ?? 1}
        onPage={setPage}
        isDisabled={isFetching}
      />
    </section>
  );
}

function UserRow({ user, listArgs }: { user: AdminUser; listArgs: GetUsersArgs }) {
  const dispatch = useAppDispatch();
  const [updateStatus, status] = useUpdateUserStatusMutation();
  const [enableBot, enabling] = useEnableBotMutation();
  const [disableBot, disabling] = useDisableBotMutation();
  const [changeRole, changingRole] = useChangeRoleMutation();
  const { canToggleStatus, canToggleBot } = actionsFor(user);
  const isBusy = status.isLoading || enabling.isLoading || disabling.isLoading || changingRole.isLoading;
  /** Deactivating, disabling a bot and changing a role are asked first; activating and enabling are not. */
  const [pending, setPending] = useState<'deactivate' | 'disable-bot' | 'role' | null>(null);
  const newRole = otherRole(user);

  const confirmRole = async () => {
    setPending(null);
    try {
      await changeRole({ id: user.id, role: newRole }).unwrap();
      dispatch(toastShown({ type: 'success', message: `${user.username} is now ${newRole}` }));
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, 'Failed to change the role') }));
    }
  };

  const toggleStatus = async () => {
    const isActive = !user.isActive;
    try {
      await updateStatus({ id: user.id, isActive }).unwrap();
      const message = isActive ? 'User activated successfully' : 'User deactivated successfully';
      dispatch(toastShown({ type: 'success', message }));
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, 'Failed to update user status') }));
    }
  };

  const toggleBot = async () => {
    const isEnabled = !user.botEnabled;
    try {
      await (isEnabled ? enableBot(user.id) : disableBot(user.id)).unwrap();
      dispatch(setBotEnabledInList(listArgs, user.id, isEnabled));
      const message = isEnabled ? 'Bot enabled successfully' : 'Bot disabled successfully';
      dispatch(toastShown({ type: 'success', message }));
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, 'Failed to update bot status') }));
    }
  };

  return (
    <tr data-testid="user-row" data-username={user.username}>
      <td data-label="User">
        <div className="admin-user-cell">
          <span className="admin-avatar" aria-hidden="true">
            {user.username.slice(0, 1).toUpperCase()}
          </span>
          <div>
            <div className="admin-user-name">{user.username}</div>
            <div className="muted small">{user.email}</div>
          </div>
        </div>
      </td>
      <td data-label="Role">
        <span className={user.role === 'SUPER_ADMIN' ? 'badge badge-accent' : 'badge badge-muted'}>{user.role}</span>
      </td>
      <td data-label="Status">
        <span className={user.isActive ? 'badge badge-success' : 'badge badge-danger'}>
          {user.isActive ? 'Active' : 'Inactive'}
        </span>
      </td>
      <td data-label="Kick">
        {user.kickAccount ? `@${user.kickAccount.kickUsername}` : <span className="muted">Not linked</span>}
      </td>
      <td data-label="Bot">
        {user.kickAccount ? (
          <span className={user.botEnabled ? 'badge badge-success' : 'badge badge-muted'}>
            {user.botEnabled ? 'Enabled' : 'Disabled'}
          </span>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td data-label="Commands">{user._count.commands}</td>
      <td data-label="Last login">
        {user.lastLogin ? formatDateTime(user.lastLogin) : <span className="muted">Never</span>}
      </td>
      <td data-label="Created">{formatDateTime(user.createdAt)}</td>
      <td data-label="Actions">
        <div className="admin-row-actions">
          {canToggleStatus && (
            <button
              type="button"
              className={
                user.isActive ? 'button button-small button-danger-outline' : 'button button-small button-outline'
              }
              aria-label={`${user.isActive ? 'Deactivate' : 'Activate'} ${user.username}`}
              disabled={isBusy}
              onClick={() => (user.isActive ? setPending('deactivate') : void toggleStatus())}
            >
              {user.isActive ? 'Deactivate' : 'Activate'}
            </button>
          )}
          {canToggleBot && (
            <button
              type="button"
              className="button button-small button-outline"
              aria-label={`${user.botEnabled ? 'Disable' : 'Enable'} bot for ${user.username}`}
              disabled={isBusy}
              onClick={() => (user.botEnabled ? setPending('disable-bot') : void toggleBot())}
            >
              {user.botEnabled ? 'Disable Bot' : 'Enable Bot'}
            </button>
          )}
          <button
            type="button"
            className="button button-small button-outline"
            aria-label={`Make ${user.username} ${newRole}`}
            disabled={isBusy}
            onClick={() => setPending('role')}
          >
            {newRole === 'SUPER_ADMIN' ? 'Make Admin' : 'Make User'}
          </button>
        </div>
        {pending === 'role' && (
          <ConfirmDialog
            title="Change role"
            message={
              newRole === 'SUPER_ADMIN'
                ? `Make ${user.username} a super admin? They can then manage every user and webhook. They are signed out and sign in again with the new role.`
                : `Make ${user.username} a user? They lose the admin panel and are signed out.`
            }
            confirmLabel={newRole === 'SUPER_ADMIN' ? 'Make Admin' : 'Make User'}
            onCancel={() => setPending(null)}
            onConfirm={() => void confirmRole()}
          />
        )}
        {pending === 'deactivate' && (
          <ConfirmDialog
            title="Deactivate user"
            message={`Deactivate ${user.username}? They are signed out and their bot stops until an administrator activates them again.`}
            confirmLabel="Deactivate"
            onCancel={() => setPending(null)}
            onConfirm={() => {
              setPending(null);
              void toggleStatus();
            }}
          />
        )}
        {pending === 'disable-bot' && (
          <ConfirmDialog
            title="Disable bot"
            message={`Disable the bot of ${user.username}? It stops answering in ${user.kickAccount ? `@${user.kickAccount.kickUsername}'s` : 'their'} chat and cannot be started until it is enabled again.`}
            confirmLabel="Disable Bot"
            onCancel={() => setPending(null)}
            onConfirm={() => {
              setPending(null);
              void toggleBot();
            }}
          />
        )}
      </td>
    </tr>
  );
}
