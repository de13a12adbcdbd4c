import { useLocation } from 'react-router-dom';
import { pageLabelOf } from './admin-nav';

/** /admin/system and /admin/settings: placeholders, as in the spec (§2). */
export function ComingSoonPage() {
  const { pathname } = useLocation();
  const title = pageLabelOf(pathname);
  return (
    <section className="admin-section" aria-labelledby="coming-soon-title">
      <div className="card empty-state admin-coming-soon">
        <h1 id="coming-soon-title">{title}</h1>
        <p className="empty-title">Coming Soon</p>
        <p className="muted">This section is not available yet.</p>
      </div>
    </section>
  );
}
