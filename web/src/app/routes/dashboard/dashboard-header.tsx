import { productName } from '../../../config/constants';

/** The username, the Bot Manager label and Exit (spec §2). */
export function DashboardHeader({ username, onExit }: { username: string; onExit: () => void }) {
  return (
    <header className="top-bar dashboard-header">
      <div className="dashboard-identity">
        <span className="brand">{productName}</span>
        <h1 className="dashboard-label">Bot Manager</h1>
      </div>
      <div className="dashboard-user">
        <span className="avatar-placeholder avatar-small" aria-hidden="true">
          {username.slice(0, 1).toUpperCase()}
        </span>
        <span className="dashboard-username" data-testid="dashboard-username">
          {username}
        </span>
        <button type="button" className="button button-outline" onClick={onExit}>
          Exit
        </button>
      </div>
    </header>
  );
}
