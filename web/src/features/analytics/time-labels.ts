// The times of a report's points, as the charts and tables show them.

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayAndHour = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit' });
const utcDay = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

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
