import { Link } from 'react-router-dom';
import { productName } from '../../config/constants';
import { paths } from '../../config/paths';
import { ModerationFiltersSection } from '../../features/moderation/components/moderation-filters';
import { ModerationLogSection } from '../../features/moderation/components/moderation-log';
import { usePageTitle } from '../../lib/page-title';
import '../../features/moderation/components/moderation.css';
import './dashboard/dashboard.css';

/** /dashboard/moderation: the chat filters and the moderation log (a lazy chunk of its own). */
export function ModerationPage() {
  usePageTitle('Moderation');
  return (
    <div className="page dashboard">
      <header className="top-bar dashboard-header">
        <div className="dashboard-identity">
          <Link className="brand" to={paths.dashboard.href()}>
            {productName}
          </Link>
          <h1 className="dashboard-label">Moderation</h1>
        </div>
        <Link className="button button-outline" to={paths.dashboard.href()}>
          Back to dashboard
        </Link>
      </header>
      <main className="container dashboard-main" id="main">
        <ModerationFiltersSection />
        <ModerationLogSection />
      </main>
    </div>
  );
}
