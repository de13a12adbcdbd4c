import { niceCeiling, ticksUpTo } from '../../../lib/chart-scale';
import { axisLabel, labelSpacing, pointLabel } from '../time-labels';
import { useWidth } from '../use-width';

/** One line of a chart; `tone` picks its colour (analytics.css). */
export interface ChartSeries {
  name: string;
  values: readonly number[];
  tone: 'accent' | 'info' | 'warning' | 'success';
}

const height = 200;
const margin = { top: 12, right: 12, bottom: 28, left: 40 };
/** Intervals that divide the axis' round top evenly (5 → 0 1 2 3 4 5, 20 → 0 5 10 15 20). */
export const tickIntervals = (top: number): number => [4, 5, 2].find((count) => top % count === 0 && top >= count) ?? 1;

/** Room for one time label on the x axis, in pixels. */
const labelRoom = 96;

/**
 * A line chart drawn as SVG by hand (no chart library: docs/decisions/analytics-charts.md), at
 * the width of its box so labels keep their size on a phone. Screen readers get its label and
 * summary; the numbers themselves are in the table next to it (SeriesTable).
 */
export function LineChart({
  label,
  summary,
  series,
  times,
  stepSeconds,
  markers = [],
}: {
  label: string;
  summary: string;
  series: readonly ChartSeries[];
  /** The start of each point (epoch ms). */
  times: readonly number[];
  stepSeconds: number;
  /** Points of the first series to mark (peak moments). */
  markers?: readonly number[];
}) {
  const [frame, width] = useWidth<HTMLDivElement>(640);
  const count = times.length;
  const top = niceCeiling(Math.max(0, ...series.flatMap((line) => line.values)));
  const plotWidth = Math.max(1, width - margin.left - margin.right);
  const plotHeight = height - margin.top - margin.bottom;
  const x = (index: number) => margin.left + (count <= 1 ? plotWidth / 2 : (index * plotWidth) / (count - 1));
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  // round spacings (every 15 minutes, every day…) that leave each label its room
  const labelEvery = labelSpacing(count <= 1 ? 1 : (labelRoom * (count - 1)) / plotWidth, stepSeconds);
  const labelled = times.map((_, index) => index).filter((index) => index % labelEvery === 0);
  const first = series[0];

  return (
    <figure className="line-chart">
      <div ref={frame} className="line-chart-frame">
        <svg width={width} height={height} role="img" aria-label={`${label}: ${summary}`}>
          {ticksUpTo(top, tickIntervals(top)).map((tick) => (
            <g key={tick} className="line-chart-grid">
              <line x1={margin.left} x2={width - margin.right} y1={y(tick)} y2={y(tick)} />
              <text x={margin.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
                {tick.toLocaleString()}
              </text>
            </g>
          ))}
          {labelled.map((index) => (
            <text
              key={index}
              className="line-chart-label"
              x={x(index)}
              y={height - 8}
              // a label at the right edge ends there instead of being cut
              textAnchor={x(index) > width - labelRoom / 2 ? 'end' : 'middle'}
            >
              {axisLabel(times[index] ?? 0, stepSeconds, labelEvery)}
            </text>
          ))}
          {series.map((line) =>
            count === 1 ? (
              <circle
                key={line.name}
                className={`line-chart-dot tone-${line.tone}`}
                cx={x(0)}
                cy={y(line.values[0] ?? 0)}
                r={3}
              />
            ) : (
              <path
                key={line.name}
                data-testid="chart-line"
                data-series={line.name}
                className={`line-chart-line tone-${line.tone}`}
                d={line.values
                  .map((value, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(value).toFixed(1)}`)
                  .join('')}
              />
            ),
          )}
          {first &&
            markers.map((index) => (
              <circle
                key={index}
                data-testid="chart-marker"
                className="line-chart-marker"
                cx={x(index)}
                cy={y(first.values[index] ?? 0)}
                r={5}
              >
                <title>{`${pointLabel(times[index] ?? 0, stepSeconds)}: ${first.values[index] ?? 0} ${first.name.toLowerCase()}`}</title>
              </circle>
            ))}
        </svg>
      </div>
      {series.length > 1 && (
        <ul className="line-chart-legend" aria-hidden="true">
          {series.map((line) => (
            <li key={line.name}>
              <span className={`line-chart-swatch tone-${line.tone}`} />
              {line.name}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
