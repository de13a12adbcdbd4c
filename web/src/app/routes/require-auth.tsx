import { Navigate, Outlet } from 'react-router-dom';
import { PageSpinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { SessionExpiredDialog } from '../../features/session/components/session-expired-dialog';
import { selectSessionStatus } from '../../features/session/session-slice';
import { useAppSelector } from '../hooks';

/**
 * Sign-in required: a spinner while the session loads, then / when signed out (spec §2). An expired
 * session keeps the page and puts the sign-in dialog over it, so nothing typed is lost.
 */
export function RequireAuth() {
  const status = useAppSelector(selectSessionStatus);
  if (status === 'loading') return <PageSpinner label="Loading your session" />;
  if (status === 'unauthenticated') return <Navigate to={paths.home.href()} replace />;
  return (
    <>
      <Outlet />
      {status === 'expired' && <SessionExpiredDialog />}
    </>
  );
}
