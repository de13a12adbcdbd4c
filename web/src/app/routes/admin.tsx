import { useAppDispatch } from '../hooks';
import { loggedOut } from '../../lib/app-events';

/** /admin/*: a placeholder until the admin panel issue lands (spec §2, "Admin panel"). */
export function AdminPlaceholderPage() {
  const dispatch = useAppDispatch();
  return (
    <div className="center-screen">
      <main className="card card-narrow" aria-labelledby="admin-title">
        <h1 id="admin-title">Admin panel</h1>
        <p className="muted">The admin panel is coming in a later release.</p>
        <div className="actions-row">
          <button type="button" className="button button-outline" onClick={() => dispatch(loggedOut())}>
            Sign Out
          </button>
        </div>
      </main>
    </div>
  );
}
