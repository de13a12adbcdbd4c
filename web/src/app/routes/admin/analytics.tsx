import { CommandAnalytics } from '../../../features/admin/components/command-analytics';

/** /admin/analytics. */
export function AdminAnalyticsPage() {
  return <CommandAnalytics />;
}
