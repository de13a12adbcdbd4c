import { AdminOverview } from '../../../features/admin/components/admin-overview';
import { useGetProfileQuery } from '../../../features/session/auth-api';

/** /admin/dashboard. */
export function AdminDashboardPage() {
  const { data: user } = useGetProfileQuery();
  return <AdminOverview username={user?.username ?? 'Admin'} />;
}
