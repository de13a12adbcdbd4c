import { pointLabel } from '../time-labels';
import type { ChartSeries } from './line-chart';

/** A chart's numbers as a table: one row per point, one column per series. */
export function SeriesTable({
  caption,
  series,
  times,
  stepSeconds,
}: {
  caption: string;
  series: readonly ChartSeries[];
  times: readonly number[];
  stepSeconds: number;
}) {
  return (
    <div className="series-table-frame" tabIndex={0} role="region" aria-label={`${caption} (table)`}>
      <table className="series-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            {series.map((line) => (
              <th key={line.name} scope="col">
                {line.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {times.map((time, index) => (
            <tr key={time} data-testid="series-row">
              <th scope="row">{pointLabel(time, stepSeconds)}</th>
              {series.map((line) => (
                <td key={line.name}>{(line.values[index] ?? 0).toLocaleString()}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
