import type { AnalyticsRange, StreamAnalytics as Report } from '@kickstand/api-contract';
import { useId, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { commandPrefix } from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { useGetAllChannelsAnalyticsQuery, useGetStreamAnalyticsQuery } from '../analytics-api';
import { momentLabel, pointTime, stepName } from '../time-labels';
import { LineChart, type ChartSeries } from './line-chart';
import { SeriesTable } from './series-table';
import './analytics.css';

const ranges: ReadonlyArray<{ id: AnalyticsRange; label: string }> = [
  { id: 'last-stream', label: 'Last stream' },
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
];

/**
 * A range switch, then the report of that range: the signed-in streamer's own channel, or (the
 * admin's analytics page) every channel together, for the day ranges only.
 */
export function StreamAnalytics({ scope = 'own' }: { scope?: 'own' | 'all' }) {
  const choices = scope === 'all' ? ranges.filter((item) => item.id !== 'last-stream') : ranges;
  const [range, setRange] = useState<AnalyticsRange>(choices[0]?.id ?? '7d');
  const options = { refetchOnMountOrArgChange: true };
  const own = useGetStreamAnalyticsQuery(range, { ...options, skip: scope !== 'own' });
  const all = useGetAllChannelsAnalyticsQuery(range === 'last-stream' ? '7d' : range, {
    ...options,
    skip: scope !== 'all',
  });
  const report = scope === 'all' ? all : own;
  return (
    <div className="analytics">
      <div className="analytics-toolbar">
        <div className="analytics-ranges" role="group" aria-label="Period">
          {choices.map((item) => (
            <button
              key={item.id}
              type="button"
              className={`button button-small ${item.id === range ? 'button-primary' : 'button-outline'}`}
              aria-pressed={item.id === range}
              onClick={() => setRange(item.id)}
            >
              {item.label}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="button button-small button-ghost"
          onClick={() => report.refetch()}
          disabled={report.isFetching}
        >
          Refresh
        </button>
      </div>
      {report.isLoading ? (
        <Spinner label="Loading analytics" />
      ) : report.isError ? (
        <div className="card analytics-error" role="alert">
          <p>{errorMessage(report.error, 'Failed to load analytics')}</p>
          <button type="button" className="button button-small button-outline" onClick={() => report.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        report.data && <ReportView report={report.data} />
      )}
    </div>
  );
}

const number = (value: number) => value.toLocaleString();

/** One range's report (pure: what the server answered). */
export function ReportView({ report }: { report: Report }) {
  if (report.range === 'last-stream' && !report.stream) {
    return (
      <div className="card">
        <h2 className="analytics-card-title">No stream seen yet</h2>
        <p className="muted">
          A stream’s analytics begin when Kick reports that your channel went live. The last 7 and 30 days count your
          chat already.
        </p>
      </div>
    );
  }
  const { totals, series, stepSeconds } = report;
  const times = series.messages.map((_, index) => pointTime(report.from, stepSeconds, index));
  const step = stepName(stepSeconds);
  const peakTimes = new Set(report.peaks.map((peak) => Date.parse(peak.at)));
  const markers = times.flatMap((time, index) => (peakTimes.has(time) ? [index] : []));
  const busiest = Math.max(0, ...series.messages);
  const chatters = `${number(totals.uniqueChatters)}${totals.isChattersCapped ? '+' : ''}`;

  const messageSeries: ChartSeries[] = [{ name: 'Messages', values: series.messages, tone: 'accent' }];
  const eventSeries: ChartSeries[] = [
    { name: 'Follows', values: series.follows, tone: 'info' },
    { name: 'Subscriptions', values: series.subscriptions, tone: 'success' },
    { name: 'Gifted subs', values: series.giftedSubscriptions, tone: 'warning' },
  ];
  const eventTableSeries: ChartSeries[] = [...eventSeries, { name: 'Kicks', values: series.kicks, tone: 'accent' }];

  return (
    <>
      {report.stream && (
        <p className="muted analytics-stream" data-testid="analytics-stream">
          <strong>{report.stream.title || 'Untitled stream'}</strong> · {momentLabel(report.stream.startedAt)} –{' '}
          {report.stream.endedAt ? momentLabel(report.stream.endedAt) : 'live now'}
        </p>
      )}
      <dl className="analytics-totals">
        <Total label="Messages" value={number(totals.messages)} id="messages" />
        <Total label="Unique chatters" value={chatters} id="chatters" />
        <Total label="Commands" value={number(totals.commands)} id="commands" />
        <Total label="Follows" value={number(totals.follows)} id="follows" />
        <Total label="Subscriptions" value={number(totals.subscriptions)} id="subscriptions" />
        <Total label="Gifted subs" value={number(totals.giftedSubscriptions)} id="gifted" />
        <Total label="Kicks" value={number(totals.kicks)} id="kicks" />
      </dl>
      {totals.isChattersCapped && (
        <p className="muted small">Unique chatters: at least this many (very busy chats are counted up to a cap).</p>
      )}

      <ChartCard
        title={`Chat messages per ${step}`}
        summary={`${number(totals.messages)} messages, at most ${number(busiest)} in one ${step}`}
        series={messageSeries}
        times={times}
        stepSeconds={stepSeconds}
        markers={markers}
      />
      <ChartCard
        title="Follows, subscriptions and gifts"
        summary={`${number(totals.follows)} follows, ${number(totals.subscriptions)} subscriptions, ${number(totals.giftedSubscriptions)} gifted subs, ${number(totals.kicks)} Kicks`}
        series={eventSeries}
        tableSeries={eventTableSeries}
        times={times}
        stepSeconds={stepSeconds}
      />

      <div className="analytics-columns">
        <RankedList
          title="Top chatters"
          empty="Nobody chatted in this period."
          entries={report.topChatters.map((entry) => ({ name: entry.username, value: entry.messages }))}
          unit="messages"
          testId="analytics-top-chatter"
        />
        <RankedList
          title="Top commands"
          empty="No command was answered in this period."
          entries={report.topCommands.map((entry) => ({
            name: `${commandPrefix}${entry.command}`,
            value: entry.executions,
          }))}
          unit="runs"
          testId="analytics-top-command"
        />
        <section className="card" aria-labelledby="analytics-peaks">
          <h2 className="analytics-card-title" id="analytics-peaks">
            Peak moments
          </h2>
          {report.peaks.length === 0 ? (
            <p className="muted">No burst: chat stayed near its usual pace.</p>
          ) : (
            <ol className="analytics-list">
              {report.peaks.map((peak) => (
                <li key={peak.at} data-testid="peak">
                  <span>
                    {momentLabel(peak.at)}
                    {peak.title && <span className="muted small analytics-peak-title">{peak.title}</span>}
                  </span>
                  <span>
                    {number(peak.messages)} messages / {step}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </>
  );
}

function Total({ label, value, id }: { label: string; value: string; id: string }) {
  return (
    <div className="analytics-total" data-testid={`total-${id}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function ChartCard({
  title,
  summary,
  series,
  tableSeries = series,
  times,
  stepSeconds,
  markers,
}: {
  title: string;
  summary: string;
  series: readonly ChartSeries[];
  tableSeries?: readonly ChartSeries[];
  times: readonly number[];
  stepSeconds: number;
  markers?: readonly number[];
}) {
  const ids = useId();
  const [isTableShown, setTableShown] = useState(false);
  return (
    <section className="card analytics-chart" aria-labelledby={`${ids}-title`}>
      <div className="analytics-chart-header">
        <h2 className="analytics-card-title" id={`${ids}-title`}>
          {title}
        </h2>
        <button
          type="button"
          className="button button-small button-ghost"
          aria-expanded={isTableShown}
          aria-controls={`${ids}-table`}
          onClick={() => setTableShown((shown) => !shown)}
        >
          {isTableShown ? 'Hide table' : 'Show as table'}
        </button>
      </div>
      <p className="muted small">{summary}</p>
      <LineChart
        label={title}
        summary={summary}
        series={series}
        times={times}
        stepSeconds={stepSeconds}
        markers={markers}
      />
      <div id={`${ids}-table`} hidden={!isTableShown}>
        {isTableShown && <SeriesTable caption={title} series={tableSeries} times={times} stepSeconds={stepSeconds} />}
      </div>
    </section>
  );
}

function RankedList({
  title,
  empty,
  entries,
  unit,
  testId,
}: {
  title: string;
  empty: string;
  entries: ReadonlyArray<{ name: string; value: number }>;
  unit: string;
  testId: string;
}) {
  const ids = useId();
  return (
    <section className="card" aria-labelledby={`${ids}-title`}>
      <h2 className="analytics-card-title" id={`${ids}-title`}>
        {title}
      </h2>
      {entries.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ol className="analytics-list">
          {entries.map((entry) => (
            <li key={entry.name} data-testid={testId}>
              <span className="mono analytics-name">{entry.name}</span>
              <span>
                {number(entry.value)} <span className="muted small">{unit}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
