import { Link } from 'react-router-dom';
import { productName } from '../../config/constants';
import { paths } from '../../config/paths';
import { StreamAnalytics } from '../../features/analytics/components/stream-analytics';
import { usePageTitle } from '../../lib/page-title';
import './dashboard/dashboard.css';

/** /dashboard/analytics: the streamer's stream analytics (a lazy chunk of its own). */
export function AnalyticsPage() {
  usePageTitle('Analytics');
  return (
    <div className="page dashboard">
      <header className="top-bar dashboard-header">
        <div className="dashboard-identity">
          <Link className="brand" to={paths.dashboard.href()}>
            {productName}
          </Link>
          <h1 className="dashboard-label">Stream analytics</h1>
        </div>
        <Link className="button button-outline" to={paths.dashboard.href()}>
          Back to dashboard
        </Link>
      </header>
      <main className="container dashboard-main" id="main">
        <StreamAnalytics />
      </main>
    </div>
  );
}
