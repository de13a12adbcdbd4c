/** 12345 → "12,345". */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** 123450 cents → "$1,234.50"; whole amounts drop the cents: 123400 → "$1,234". */
export function formatMoney(cents: number): string {
  const dollars = Math.trunc(cents / 100);
  const rest = cents % 100;
  const whole = dollars.toLocaleString('en-US');
  return rest === 0 ? `$${whole}` : `$${whole}.${String(rest).padStart(2, '0')}`;
}

/** 150_000 → "2 minutes 30 seconds", 60_000 → "1 minute", 5_000 → "5 seconds". */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  const parts: string[] = [];
  if (minutes > 0) parts.push(`${minutes} minute${minutes === 1 ? '' : 's'}`);
  if (seconds > 0 || minutes === 0) parts.push(`${seconds} second${seconds === 1 ? '' : 's'}`);
  return parts.join(' ');
}

export const minutesText = (minutes: number): string => `${minutes} minute${minutes === 1 ? '' : 's'}`;

/** 🥇 🥈 🥉 for the podium, then "4th", "5th". */
export function placeLabel(rank: number): string {
  switch (rank) {
    case 1:
      return '🥇';
    case 2:
      return '🥈';
    case 3:
      return '🥉';
    default:
      return `${rank}th`;
  }
}
