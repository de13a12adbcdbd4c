import { AuditLogTable } from '../../../features/admin/components/audit-log-table';

/** /admin/audit. */
export function AdminAuditPage() {
  return <AuditLogTable />;
}
