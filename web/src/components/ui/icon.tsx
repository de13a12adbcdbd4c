// Line icons drawn inline (24×24, stroke = currentColor), so no icon font or emoji font is needed.
const icons = {
  robot: 'M12 4v4M9 13h.01M15 13h.01M9 17h6M6 8h12a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2z',
  terminal: 'M4 17l6-5-6-5M12 19h8',
  zap: 'M13 2L3 14h9l-1 8 10-12h-9l1-8z',
  gamepad:
    'M6 7h12a4 4 0 0 1 4 4v3a4 4 0 0 1-4 4H6a4 4 0 0 1-4-4v-3a4 4 0 0 1 4-4zM7 11v3M5.5 12.5h3M15 12h.01M18 13.5h.01',
  lock: 'M6 11h12a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-6a2 2 0 0 1 2-2zM8 11V7a4 4 0 0 1 8 0v4',
  chart: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  sparkles:
    'M12 3l1.8 4.7 4.7 1.8-4.7 1.8L12 16l-1.8-4.7-4.7-1.8 4.7-1.8zM19 15l.8 2.2 2.2.8-2.2.8L19 21l-.8-2.2-2.2-.8 2.2-.8z',
  warning: 'M12 3l10 18H2zM12 10v5M12 18h.01',
} as const;

export type IconName = keyof typeof icons;

export function Icon({ name, size = 28, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={icons[name]} />
    </svg>
  );
}
