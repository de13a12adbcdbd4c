import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { productName } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { usePageTitle } from '../../../lib/page-title';
import './dashboard.css';

interface DashboardSubpageProps {
  /** The browser tab's title (usePageTitle), and the heading unless `heading` says otherwise. */
  title: string;
  heading?: string;
  /** The page's sections; each shows its own loading and error states. */
  children: ReactNode;
}

/**
 * The frame of a page the dashboard links to (Analytics, Moderation, Team): the product's name and
 * Back to dashboard both lead back to /dashboard, the page's heading, and its sections in <main>.
 */
export function DashboardSubpage({ title, heading = title, children }: DashboardSubpageProps) {
  usePageTitle(title);
  return (
    <div className="page dashboard">
      <header className="top-bar dashboard-header">
        <div className="dashboard-identity">
          <Link className="brand" to={paths.dashboard.href()}>
            {productName}
          </Link>
          <h1 className="dashboard-label">{heading}</h1>
        </div>
        <Link className="button button-outline" to={paths.dashboard.href()}>
          Back to dashboard
        </Link>
      </header>
      <main className="container dashboard-main" id="main">
        {children}
      </main>
    </div>
  );
}
