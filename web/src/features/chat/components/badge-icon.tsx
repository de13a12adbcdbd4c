import type { BadgeKind } from '../chat-format';

// Small inline icons, so they look the same on every system (no emoji font needed).
const paths: Record<BadgeKind | 'bot', string> = {
  // a video camera
  broadcaster:
    'M2 6.5A1.5 1.5 0 0 1 3.5 5h7A1.5 1.5 0 0 1 12 6.5v7a1.5 1.5 0 0 1-1.5 1.5h-7A1.5 1.5 0 0 1 2 13.5zM13 8.5l5-3v9l-5-3z',
  // a shield
  moderator: 'M10 2l7 3v5c0 4.2-3 7.2-7 8-4-.8-7-3.8-7-8V5z',
  // a star
  subscriber: 'M10 2l2.4 5 5.6.8-4 3.9.9 5.6-4.9-2.7-4.9 2.7.9-5.6-4-3.9 5.6-.8z',
  // a speech bubble
  default: 'M4 4h12a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H9l-4 3v-3H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z',
  // a robot head
  bot: 'M9 2h2v2h4a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h4zM7 8a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm6 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z',
};

export function BadgeIcon({ kind }: { kind: BadgeKind | 'bot' }) {
  return (
    <svg className={`badge-icon badge-icon-${kind}`} viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
      <path d={paths[kind]} fill="currentColor" fillRule="evenodd" />
    </svg>
  );
}
