import { CommandAnalytics } from '../../../features/admin/components/command-analytics';
import { StreamAnalytics } from '../../../features/analytics/components/stream-analytics';

/** /admin/analytics: answered commands, then chat and channel events across all channels. */
export function AdminAnalyticsPage() {
  return (
    <>
      <CommandAnalytics />
      <section className="admin-section" aria-labelledby="all-channels-title">
        <h2 id="all-channels-title">Chat across all channels</h2>
        <StreamAnalytics scope="all" />
      </section>
    </>
  );
}
