import type { AuditEntry } from '@kickstand/api-contract';
import { useGetTeamActivityQuery } from '../team-api';

/** One line of the team log, in words. */
function describe(entry: AuditEntry): string {
  switch (entry.action) {
    case 'team.editor.invited':
      return `${entry.actor.username} invited ${entry.target.username}`;
    case 'team.editor.removed':
      return `${entry.actor.username} removed ${entry.target.username}`;
    case 'team.editor.acted':
      return `${entry.actor.username}: ${entry.details.method ?? ''} ${entry.details.path ?? ''}`;
    default:
      return `${entry.actor.username}: ${entry.action}`;
  }
}

/** The owner's team log: editors invited and removed, and every change an editor made (newest first). */
export function TeamActivity() {
  const { data: entries = [], isError } = useGetTeamActivityQuery();
  return (
    <section className="team-section" aria-labelledby="team-activity-heading">
      <h2 id="team-activity-heading">Team log</h2>
      {isError && <p role="alert">The team log could not be loaded.</p>}
      {entries.length === 0 && !isError && <p>Nothing yet.</p>}
      <ul className="team-list">
        {entries.map((entry) => (
          <li key={entry.id} className="team-item">
            <time dateTime={entry.createdAt} className="muted">
              {new Date(entry.createdAt).toLocaleString()}
            </time>{' '}
            <span>{describe(entry)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
