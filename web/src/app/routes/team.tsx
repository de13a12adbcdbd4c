import { Link } from 'react-router-dom';
import { productName } from '../../config/constants';
import { paths } from '../../config/paths';
import { ChannelSwitcher } from '../../features/team/components/channel-switcher';
import { TeamActivity } from '../../features/team/components/team-activity';
import { TeamEditors } from '../../features/team/components/team-editors';
import '../../features/team/components/team.css';
import { usePageTitle } from '../../lib/page-title';
import './dashboard/dashboard.css';

/** /dashboard/team: team access (a lazy chunk of its own): my editors, and the channels I edit. */
export function TeamPage() {
  usePageTitle('Team');
  return (
    <div className="page dashboard">
      <header className="top-bar dashboard-header">
        <div className="dashboard-identity">
          <Link className="brand" to={paths.dashboard.href()}>
            {productName}
          </Link>
          <h1 className="dashboard-label">Team</h1>
        </div>
        <Link className="button button-outline" to={paths.dashboard.href()}>
          Back to dashboard
        </Link>
      </header>
      <main className="container dashboard-main" id="main">
        <TeamEditors />
        <ChannelSwitcher />
        <TeamActivity />
      </main>
    </div>
  );
}
