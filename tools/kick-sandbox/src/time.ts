/** RFC 3339 in UTC with second precision (`2026-03-02T18:04:11Z`), the form Kick sends. */
export function rfc3339Seconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const addSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000);
