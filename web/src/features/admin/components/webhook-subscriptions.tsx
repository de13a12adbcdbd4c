import { useEffect, useId, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import {
  defaultSubscribedEvent,
  subscribableEvents,
  subscriptionPageSize,
  webhookUserPageSize,
  type SubscribableEvent,
} from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import {
  useGetSubscriptionsQuery,
  useGetUsersQuery,
  useSubscribeAllMutation,
  useSubscribeMutation,
  useSubscribeSelectedMutation,
  useUnsubscribeAllMutation,
  useUnsubscribeMutation,
  type AdminUser,
  type Subscription,
} from '../admin-api';
import { unsubscribeWarning } from '../unsubscribe-warning';
import { pageAfterChange, pageCount, pageOf } from '../paging';
import { LoadError } from './load-error';
import { Pager } from './pager';

/** /admin/webhooks: a linked user's Kick event subscriptions (spec §2, §4, §5, §8). */
export function WebhookSubscriptions() {
  const ids = useId();
  const dispatch = useAppDispatch();
  const [userPage, setUserPage] = useState(1);
  const [selectedUser, setSelectedUser] = useState<Pick<AdminUser, 'id' | 'username' | 'kickAccount'> | null>(null);
  const [event, setEvent] = useState<SubscribableEvent>(defaultSubscribedEvent);
  const [ticked, setTicked] = useState<ReadonlySet<SubscribableEvent>>(() => new Set([defaultSubscribedEvent]));
  const [tablePage, setTablePage] = useState(1);
  /** The unsubscribe waiting for the admin's confirmation: all, or one subscription. */
  const [pendingUnsubscribe, setPendingUnsubscribe] = useState<'all' | Subscription | null>(null);

  const users = useGetUsersQuery({ page: userPage, limit: webhookUserPageSize, hasKick: true });
  const userId = selectedUser?.id ?? '';
  const subscriptions = useGetSubscriptionsQuery(userId, { skip: userId === '' });

  const [subscribe, subscribing] = useSubscribeMutation();
  const [subscribeSelected, subscribingSelected] = useSubscribeSelectedMutation();
  const [subscribeAll, subscribingAll] = useSubscribeAllMutation();
  const [unsubscribeAll, unsubscribingAll] = useUnsubscribeAllMutation();
  const [unsubscribe, unsubscribing] = useUnsubscribeMutation();
  const isBusy =
    subscribing.isLoading ||
    subscribingSelected.isLoading ||
    subscribingAll.isLoading ||
    unsubscribingAll.isLoading ||
    unsubscribing.isLoading ||
    subscriptions.isFetching;

  const rows = userId === '' ? [] : (subscriptions.data?.subscriptions ?? []);
  const pages = pageCount(rows.length, subscriptionPageSize);
  // the list shrank under the current page (an unsubscribe, a reload): back to page 1
  const page = pageAfterChange(tablePage, rows.length, subscriptionPageSize);
  useEffect(() => {
    if (page !== tablePage) setTablePage(page);
  }, [page, tablePage]);

  /** Runs one call: the spec's success text, or the server's error, else the spec's failure text. */
  const run = async (call: () => Promise<unknown>, success: string, failure: string) => {
    try {
      await call();
      dispatch(toastShown({ type: 'success', message: success }));
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, failure) }));
    }
  };

  const pickUser = (id: string) => {
    const user = users.data?.users.find((candidate) => candidate.id === id);
    setSelectedUser(user ? { id: user.id, username: user.username, kickAccount: user.kickAccount } : null);
    setTablePage(1);
  };

  const toggle = (name: SubscribableEvent, isChecked: boolean) =>
    setTicked((current) => {
      const next = new Set(current);
      if (isChecked) next.add(name);
      else next.delete(name);
      return next;
    });

  const hasUser = userId !== '';
  const chosen = subscribableEvents.filter((name) => ticked.has(name));

  return (
    <section className="admin-section" aria-labelledby={`${ids}-title`}>
      <div className="admin-section-header">
        <div>
          <h1 id={`${ids}-title`}>Webhook Management</h1>
          <p className="muted">Subscribe a streamer&apos;s channel to Kick events, or remove subscriptions.</p>
        </div>
      </div>

      <div className="card admin-webhook-controls">
        <div className="field">
          <label className="field-label" htmlFor={`${ids}-user`}>
            User
          </label>
          {users.isError ? (
            <LoadError message={errorMessage(users.error, 'Failed to load users')} onRetry={users.refetch} />
          ) : (
            <select
              id={`${ids}-user`}
              value={userId}
              disabled={users.isLoading}
              onChange={(changed) => pickUser(changed.target.value)}
            >
              <option value="">{users.isLoading ? 'Loading users…' : 'Select a user'}</option>
              {selectedUser && !users.data?.users.some((user) => user.id === selectedUser.id) && (
                <option value={selectedUser.id}>{userOption(selectedUser)}</option>
              )}
              {users.data?.users.map((user) => (
                <option key={user.id} value={user.id}>
                  {userOption(user)}
                </option>
              ))}
            </select>
          )}
          <span className="field-hint">Only users with a linked Kick account.</span>
          <Pager
            label="User pages"
            page={userPage}
            pages={users.data?.pagination.pages ?? 1}
            onPage={setUserPage}
            isDisabled={users.isFetching}
          />
        </div>

        <div className="admin-webhook-single">
          <label className="field">
            <span className="field-label">Event</span>
            <select value={event} onChange={(changed) => setEvent(changed.target.value as SubscribableEvent)}>
              {subscribableEvents.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="button button-primary"
            disabled={isBusy || !hasUser}
            onClick={() =>
              run(() => subscribe({ userId, event }).unwrap(), 'Subscribed successfully', 'Failed to subscribe')
            }
          >
            Subscribe
          </button>
        </div>

        <fieldset className="admin-event-list">
          <legend className="field-label">Events</legend>
          {subscribableEvents.map((name) => (
            <label key={name} className="admin-event-option">
              <input
                type="checkbox"
                checked={ticked.has(name)}
                onChange={(changed) => toggle(name, changed.target.checked)}
              />
              <span className="mono">{name}</span>
            </label>
          ))}
        </fieldset>

        <div className="actions-row">
          <button
            type="button"
            className="button button-primary"
            disabled={isBusy || !hasUser || chosen.length === 0}
            onClick={() =>
              run(
                () => subscribeSelected({ userId, events: chosen }).unwrap(),
                'Subscribed to selected events',
                'Failed to subscribe selected events',
              )
            }
          >
            Subscribe Selected
          </button>
          <button
            type="button"
            className="button button-outline"
            disabled={isBusy || !hasUser}
            onClick={() =>
              run(() => subscribeAll(userId).unwrap(), 'Subscribed to all events', 'Failed to subscribe all')
            }
          >
            Subscribe All
          </button>
          <button
            type="button"
            className="button button-danger-outline"
            disabled={isBusy || !hasUser}
            onClick={() => setPendingUnsubscribe('all')}
          >
            Unsubscribe All
          </button>
        </div>
      </div>

      <div className="card">
        <h2 className="admin-card-title">
          Subscriptions{selectedUser ? ` of ${selectedUser.username}` : ''}
          {hasUser && subscriptions.data && (
            <span className="count-badge">{subscriptions.data.subscriptions.length}</span>
          )}
        </h2>
        {!hasUser ? (
          <p className="muted">Select a user to see their subscriptions.</p>
        ) : subscriptions.isLoading ? (
          <Spinner label="Loading subscriptions" />
        ) : subscriptions.isError ? (
          <LoadError
            message={errorMessage(subscriptions.error, 'Failed to load subscriptions')}
            onRetry={subscriptions.refetch}
          />
        ) : rows.length === 0 ? (
          <div className="empty-state">
            <p className="empty-title">No subscriptions found</p>
          </div>
        ) : (
          <>
            <div className="table-scroll">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Subscription ID</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {pageOf(rows, page, subscriptionPageSize).map((subscription) => (
                    <tr key={subscription.id} data-testid="subscription-row" data-event={subscription.event}>
                      <td className="mono">{subscription.event}</td>
                      <td>
                        <span
                          className={subscription.status === 'active' ? 'badge badge-success' : 'badge badge-muted'}
                        >
                          {subscription.status}
                        </span>
                      </td>
                      <td className="mono small">{subscription.id}</td>
                      <td>
                        <button
                          type="button"
                          className="button button-small button-danger-outline"
                          aria-label={`Unsubscribe ${subscription.event}`}
                          disabled={isBusy}
                          onClick={() => setPendingUnsubscribe(subscription)}
                        >
                          Unsubscribe
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager label="Subscription pages" page={page} pages={pages} onPage={setTablePage} />
          </>
        )}
      </div>
      {pendingUnsubscribe && selectedUser && (
        <ConfirmDialog
          title={pendingUnsubscribe === 'all' ? 'Unsubscribe from all events' : 'Unsubscribe'}
          message={unsubscribeWarning({
            username: selectedUser.username,
            events: pendingUnsubscribe === 'all' ? rows.map((row) => row.event) : [pendingUnsubscribe.event],
            bot: subscriptions.data?.bot ?? null,
          }).map((line) => (
            <p key={line}>{line}</p>
          ))}
          confirmLabel={pendingUnsubscribe === 'all' ? 'Unsubscribe All' : 'Unsubscribe'}
          isBusy={unsubscribingAll.isLoading || unsubscribing.isLoading}
          onCancel={() => setPendingUnsubscribe(null)}
          onConfirm={async () => {
            const target = pendingUnsubscribe;
            setPendingUnsubscribe(null);
            if (target === 'all') {
              await run(
                () => unsubscribeAll(userId).unwrap(),
                'Unsubscribed from all events',
                'Failed to unsubscribe all',
              );
            } else {
              await run(
                () => unsubscribe({ userId, subscriptionId: target.id }).unwrap(),
                'Unsubscribed successfully',
                'Failed to unsubscribe',
              );
            }
          }}
        />
      )}
    </section>
  );
}

const userOption = (user: Pick<AdminUser, 'username' | 'kickAccount'>) =>
  user.kickAccount ? `${user.username} (@${user.kickAccount.kickUsername})` : user.username;
