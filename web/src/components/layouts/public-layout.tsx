import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { env } from '../../config/env';
import { productName } from '../../config/constants';
import { paths } from '../../config/paths';

const navClass = ({ isActive }: { isActive: boolean }) => `button button-ghost${isActive ? ' nav-active' : ''}`;

/** The public pages' frame: top bar with Home, Commands and Login; footer (spec §2). */
export function PublicLayout({ onLogin, children }: { onLogin: () => void; children: ReactNode }) {
  return (
    <div className="page">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <Link to={paths.home.href()} className="brand">
          {productName}
        </Link>
        <nav className="top-bar-nav" aria-label="Main">
          <NavLink to={paths.home.href()} end className={navClass}>
            Home
          </NavLink>
          <NavLink to={paths.commands.href()} className={navClass}>
            Commands
          </NavLink>
          <button type="button" className="button button-primary" onClick={onLogin}>
            Login
          </button>
        </nav>
      </header>
      <main id="main">{children}</main>
      <footer className="footer">
        <span>
          © {new Date().getFullYear()} {productName}. Built for streamers on Kick.
        </span>
        <nav className="footer-links" aria-label="Footer">
          <Link to={paths.home.href()}>Home</Link>
          <Link to={paths.commands.href()}>Commands</Link>
          <a href={`mailto:${env.feedbackEmail}`}>Suggest a feature</a>
        </nav>
      </footer>
    </div>
  );
}
