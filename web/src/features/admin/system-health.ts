import type { ServiceHealth } from './admin-api';

// The dashboard's System Health and Uptime cards, from the gateway's /api/health.

export interface HealthSummary {
  health: 'healthy' | 'warning';
  upCount: number;
  total: number;
  /** The product is as old as its most recently started service; null when none said. */
  uptimeSeconds: number | null;
}

export function summariseHealth(services: readonly ServiceHealth[]): HealthSummary {
  const up = services.filter((service) => service.status === 'up');
  const uptimes = up.map((service) => service.uptimeSeconds).filter((value): value is number => value !== null);
  return {
    health: services.length > 0 && up.length === services.length ? 'healthy' : 'warning',
    upCount: up.length,
    total: services.length,
    uptimeSeconds: uptimes.length > 0 ? Math.min(...uptimes) : null,
  };
}

/** "45s", "12m 5s", "3h 20m", "2d 4h". */
export function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${s % 60}s`;
  return `${s}s`;
}
