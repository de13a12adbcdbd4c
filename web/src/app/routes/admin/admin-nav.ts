import { paths } from '../../../config/paths';
import type { AdminIconName } from './admin-icons';

/** The sidebar, in the spec's order (§2); the breadcrumb names the page after it. */
export const adminNav: ReadonlyArray<{ label: string; href: string; icon: AdminIconName }> = [
  { label: 'Dashboard', href: paths.admin.dashboard.href(), icon: 'dashboard' },
  { label: 'Users', href: paths.admin.users.href(), icon: 'users' },
  { label: 'Webhook', href: paths.admin.webhooks.href(), icon: 'webhook' },
  { label: 'Analytics', href: paths.admin.analytics.href(), icon: 'analytics' },
  { label: 'Audit Logs', href: paths.admin.audit.href(), icon: 'audit' },
  { label: 'System', href: paths.admin.system.href(), icon: 'system' },
  { label: 'Settings', href: paths.admin.settings.href(), icon: 'settings' },
];

/** The breadcrumb's last part for a pathname under /admin. */
export const pageLabelOf = (pathname: string): string =>
  adminNav.find((item) => pathname === item.href || pathname.startsWith(`${item.href}/`))?.label ?? 'Dashboard';
