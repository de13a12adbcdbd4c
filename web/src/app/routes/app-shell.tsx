import { Outlet } from 'react-router-dom';
import { useGetProfileQuery } from '../../features/session/auth-api';
import { selectSessionStatus } from '../../features/session/session-slice';
import { useAppSelector } from '../hooks';

/** The root route: fetches the profile whenever a token is stored (spec §4), then renders the page. */
export function AppShell() {
  const status = useAppSelector(selectSessionStatus);
  useGetProfileQuery(undefined, { skip: status === 'unauthenticated' });
  return <Outlet />;
}
