import { lazy, Suspense, useState } from 'react';
import { Navigate, Outlet, useOutletContext } from 'react-router-dom';
import { PublicLayout } from '../../components/layouts/public-layout';
import { paths } from '../../config/paths';
import { selectSessionStatus } from '../../features/session/session-slice';
import { useAppSelector } from '../hooks';

// A chunk of its own: the sign-in and sign-up forms (and the contract's zod schemas they check with)
// load when the visitor opens them, not with the landing page (npm run size:web: / stays under 150 KB).
const LoginModal = lazy(async () => ({
  default: (await import('../../features/session/components/login-modal')).LoginModal,
}));

export interface PublicOutletContext {
  openLogin: () => void;
}

/** What pages inside the public layout receive. */
export const usePublicOutlet = () => useOutletContext<PublicOutletContext>();

/** / and /commands: the public layout and the login modal; a signed-in visitor goes on to /dashboard (replace). */
export function PublicRoute() {
  const status = useAppSelector(selectSessionStatus);
  const [isLoginOpen, setLoginOpen] = useState(false);

  if (status === 'authenticated') return <Navigate to={paths.dashboard.href()} replace />;

  const openLogin = () => setLoginOpen(true);
  return (
    <>
      <PublicLayout onLogin={openLogin}>
        <Outlet context={{ openLogin } satisfies PublicOutletContext} />
      </PublicLayout>
      {isLoginOpen && (
        <Suspense fallback={null}>
          <LoginModal onClose={() => setLoginOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
