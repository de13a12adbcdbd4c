import type { DeliveryHealth, RefusalReason, SenderKind } from './health-api';

export const senderLabels: Record<SenderKind, string> = {
  'bot-account': 'Bot account',
  'streamer-bot': 'Streamer account (as bot)',
  'streamer-user': 'Streamer account',
};

export const refusalLabels: Record<RefusalReason, string> = {
  'bad-signature': 'Bad signature',
  'stale-timestamp': 'Too old',
  'too-large': 'Too large',
};

/** A date and time in the reader's locale, or "never". */
export function formatWhen(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** Kick's send time to arrival: milliseconds below a second, else seconds with one decimal. */
export function formatLag(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export const totalRefused = (refused: Record<RefusalReason, number>) =>
  Object.values(refused).reduce((sum, count) => sum + count, 0);

export const failedReplies = (health: DeliveryHealth) =>
  Object.values(health.replies).reduce((sum, counts) => sum + counts.failed + counts.dropped, 0);
