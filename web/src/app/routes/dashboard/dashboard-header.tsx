import type { ReactNode } from 'react';
import { productName } from '../../../config/constants';

/** The username, the Bot Manager label and Exit (spec §2); `links` go before Exit (the streamer's Analytics). */
export function DashboardHeader({
  username,
  onExit,
  links,
}: {
  username: string;
  onExit: () => void;
  links?: ReactNode;
}) {
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
        {links && (
          <nav className="dashboard-links" aria-label="Dashboard pages">
            {links}
          </nav>
        )}
        <button type="button" className="button button-outline" onClick={onExit}>
          Exit
        </button>
      </div>
    </header>
  );
}
