import { niceCeiling, ticksUpTo } from '../../../lib/chart-scale';
import { formatDay } from '../format';

const width = 640;
const height = 240;
const margin = { top: 12, right: 8, bottom: 28, left: 36 };

/** Executions per day as an SVG bar chart (hand-drawn: no chart library), with a table for screen readers. */
export function CommandUsageChart({ days }: { days: ReadonlyArray<{ date: string; executions: number }> }) {
  const total = days.reduce((sum, day) => sum + day.executions, 0);
  const top = niceCeiling(Math.max(0, ...days.map((day) => day.executions)));
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  // every label when they fit, else every second one
  const labelEvery = days.length > 10 ? 2 : 1;

  return (
    <figure className="usage-chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`Command executions per day over the last ${days.length} days: ${total} in total`}
        preserveAspectRatio="xMidYMid meet"
      >
        {ticksUpTo(top).map((tick) => (
          <g key={tick} className="usage-chart-grid">
            <line x1={margin.left} x2={width - margin.right} y1={y(tick)} y2={y(tick)} />
            <text x={margin.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
              {tick}
            </text>
          </g>
        ))}
        {days.map((day, index) => {
          const x = margin.left + index * slot + (slot - barWidth) / 2;
          const barTop = y(day.executions);
          return (
            <g key={day.date} data-testid="usage-bar" data-date={day.date} data-executions={day.executions}>
              <rect
                className="usage-chart-bar"
                x={x}
                y={barTop}
                width={barWidth}
                height={margin.top + plotHeight - barTop}
                rx={2}
              >
                <title>{`${formatDay(day.date)}: ${day.executions} executions`}</title>
              </rect>
              {index % labelEvery === (days.length - 1) % labelEvery && (
                <text className="usage-chart-label" x={x + barWidth / 2} y={height - 8} textAnchor="middle">
                  {formatDay(day.date)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <table className="visually-hidden">
        <caption>Executions per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Executions</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <td>{day.date}</td>
              <td>{day.executions}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
