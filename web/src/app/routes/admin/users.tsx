import { UserManagement } from '../../../features/admin/components/users-table';

/** /admin/users. */
export function AdminUsersPage() {
  return <UserManagement />;
}
