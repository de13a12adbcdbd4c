import { useGetCommandStatsQuery } from './usage-api';
import './command-usage.css';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Under a command in the list: its runs in the last 24 hours and 7 days, and when it last ran.
 * Nothing while the numbers load or when they cannot be had: the list works without them.
 */
export function CommandUsageLine({ name }: { name: string }) {
  const { stats } = useGetCommandStatsQuery(undefined, {
    selectFromResult: ({ data }) => ({ stats: data?.find((entry) => entry.command === name.toLowerCase()) }),
  });
  if (!stats) return null;
  return (
    <p className="command-usage" data-testid={`usage-${name}`}>
      <span>24 h: {stats.last24Hours.toLocaleString()}</span>
      <span>7 days: {stats.last7Days.toLocaleString()}</span>
      <span>
        {stats.lastUsedAt ? (
          <>
            Last used <time dateTime={stats.lastUsedAt}>{dateTime.format(new Date(stats.lastUsedAt))}</time>
          </>
        ) : (
          'Never used'
        )}
      </span>
    </p>
  );
}
