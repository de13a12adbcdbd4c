import { useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner';
import { adminLoadingScreenMs, productName } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { useGetDashboardStatsQuery } from '../../../features/admin/admin-api';
import { useGetProfileQuery } from '../../../features/session/auth-api';
import { errorMessage, errorStatus } from '../../../lib/api-error';
import { loggedOut } from '../../../lib/app-events';
import { usePageTitle } from '../../../lib/page-title';
import { useAppDispatch } from '../../hooks';
import { AdminIcon } from './admin-icons';
import { adminNav, pageLabelOf } from './admin-nav';
import { ProfileMenu } from './profile-menu';
import './admin.css';

/**
 * /admin/*: sidebar, breadcrumb bar, mobile slide-in menu, profile menu and the 500 ms loading
 * screen (spec §2). The server decides who is an administrator: the first admin call (the
 * dashboard figures) answers 403 to a USER, and then nothing of the panel is shown.
 */
export function AdminLayout() {
  const dispatch = useAppDispatch();
  const { data: user } = useGetProfileQuery();
  const access = useGetDashboardStatsQuery();
  const [isBooting, setBooting] = useState(true);
  const [isMenuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  usePageTitle(`${pageLabelOf(pathname)} · Admin`);

  useEffect(() => {
    const timer = setTimeout(() => setBooting(false), adminLoadingScreenMs);
    return () => clearTimeout(timer);
  }, []);

  // a page was chosen: the mobile menu slides away
  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!isMenuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [isMenuOpen]);

  const signOut = () => dispatch(loggedOut());

  if (isBooting || access.isLoading) {
    return (
      <div className="admin-loading-screen">
        <Spinner label="Loading the admin panel" />
        <p className="muted">Loading the admin panel…</p>
      </div>
    );
  }

  if (errorStatus(access.error) === 403) {
    return (
      <div className="center-screen">
        <main className="card card-narrow admin-no-access" aria-labelledby="no-access-title">
          <AdminIcon name="lock" size={32} />
          <h1 id="no-access-title">No access</h1>
          <p>You do not have access to the admin panel.</p>
          <p className="muted small">{errorMessage(access.error, 'Administrator access required')}</p>
          <div className="actions-row">
            <Link className="button button-primary" to={paths.dashboard.href()}>
              Go to Dashboard
            </Link>
            <button type="button" className="button button-outline" onClick={signOut}>
              Sign Out
            </button>
          </div>
        </main>
      </div>
    );
  }

  const pageLabel = pageLabelOf(pathname);
  return (
    <div className="admin-shell">
      <a className="skip-link" href="#admin-main">
        Skip to content
      </a>
      <aside
        id="admin-sidebar"
        className={`admin-sidebar${isMenuOpen ? ' admin-sidebar-open' : ''}`}
        aria-label="Admin panel"
      >
        <div className="admin-sidebar-header">
          <Link className="brand" to={paths.admin.dashboard.href()}>
            {productName} <span className="muted small">Admin</span>
          </Link>
          <button
            type="button"
            className="icon-button admin-menu-close"
            aria-label="Close menu"
            onClick={() => setMenuOpen(false)}
          >
            <AdminIcon name="close" />
          </button>
        </div>
        <nav aria-label="Admin sections">
          <ul className="admin-nav">
            {adminNav.map((item) => (
              <li key={item.href}>
                <NavLink
                  to={item.href}
                  className={({ isActive }) => `admin-nav-link${isActive ? ' admin-nav-link-active' : ''}`}
                >
                  <AdminIcon name={item.icon} />
                  <span>{item.label}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      {isMenuOpen && <div className="admin-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <div className="admin-main">
        <header className="admin-header">
          <button
            type="button"
            className="icon-button admin-menu-button"
            aria-label="Open menu"
            aria-controls="admin-sidebar"
            aria-expanded={isMenuOpen}
            onClick={() => setMenuOpen(true)}
          >
            <AdminIcon name="menu" />
          </button>
          <nav aria-label="Breadcrumb" className="admin-breadcrumb">
            <ol>
              <li>
                <Link to={paths.admin.dashboard.href()}>Admin</Link>
              </li>
              <li aria-current="page">{pageLabel}</li>
            </ol>
          </nav>
          <ProfileMenu username={user?.username ?? 'Admin'} email={user?.email} onSignOut={signOut} />
        </header>
        <main id="admin-main" className="admin-content">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
