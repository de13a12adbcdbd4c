import { DashboardSubpage } from './dashboard/dashboard-subpage';
import { StreamAnalytics } from '../../features/analytics/components/stream-analytics';

/** /dashboard/analytics: the streamer's stream analytics (a lazy chunk of its own). */
export function AnalyticsPage() {
  return (
    <DashboardSubpage title="Analytics" heading="Stream analytics">
      <StreamAnalytics />
    </DashboardSubpage>
  );
}
