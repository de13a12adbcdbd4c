// The times of a report's points, as the charts and tables show them.

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayAndHour = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit' });
const utcDay = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** How many points apart the time labels of an axis are: a round number of the step. */
const roundSpacings: Record<string, readonly number[]> = {
  minute: [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440],
  hour: [1, 2, 3, 6, 12, 24, 48, 72, 168],
  day: [1, 2, 5, 7, 10, 15, 30],
};

/** The smallest round spacing (in points) of at least `atLeast` points. */
export function labelSpacing(atLeast: number, stepSeconds: number): number {
  const spacings = roundSpacings[stepName(stepSeconds)] ?? [1];
  return spacings.find((spacing) => spacing >= atLeast) ?? Math.ceil(atLeast);
}

/**
 * A point's label on a chart's time axis: as pointLabel, except that hours labelled a day or more
 * apart show only their (UTC) day, "Mar 3".
 */
export function axisLabel(ms: number, stepSeconds: number, spacing: number): string {
  if (stepSeconds >= 3_600 && stepSeconds * spacing >= 86_400) return utcDay.format(ms);
  return pointLabel(ms, stepSeconds);
}

/** The start of point `index` of a series beginning at `from` (ISO) with steps of `stepSeconds`. */
export const pointTime = (from: string, stepSeconds: number, index: number): number =>
  Date.parse(from) + index * stepSeconds * 1000;

/**
 * A point's label by the step: minutes as "20:05", hours as "Mar 3, 14", days (UTC days, as the
 * server counts them) as "Mar 3". Times are in the browser's time zone.
 */
export function pointLabel(ms: number, stepSeconds: number): string {
  if (stepSeconds >= 86_400) return utcDay.format(ms);
  if (stepSeconds >= 3_600) return dayAndHour.format(ms);
  return clock.format(ms);
}

/** "Mar 3, 2026, 8:05 PM": a moment in full. */
export const momentLabel = (iso: string): string => full.format(Date.parse(iso));

/** What one step is called: "minute", "hour" or "day". */
export const stepName = (stepSeconds: number): string =>
  stepSeconds >= 86_400 ? 'day' : stepSeconds >= 3_600 ? 'hour' : 'minute';
