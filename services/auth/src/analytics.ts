import { createHash } from 'node:crypto';
import type { CommandUsage, AdminStats } from '@kickstand/api-contract';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { CommandKind, type CommandExecuted } from '@kickstand/proto';
import type { CommandCounter } from './command-counter';
import type { AuthRepository, CommandKindName } from './repository';
import { dateOf } from './timestamps';

/** auth's figures for the admin dashboard: the HTTP contract's. */
export type { AdminStats };

/** Command usage over the last `days` days, for all streamers (GET /api/admin/analytics): the HTTP contract's. */
export type CommandUsageReport = CommandUsage;

/** command.executed's kind; UNSPECIFIED comes from producers that only answered custom commands. */
const kindNames: Partial<Record<CommandKind, CommandKindName>> = {
  [CommandKind.CUSTOM]: 'custom',
  [CommandKind.BUILT_IN]: 'built-in',
  [CommandKind.GAME]: 'game',
};

export const topCommandsLimit = 10;
export { defaultAnalyticsDays, maxAnalyticsDays } from '@kickstand/api-contract';

const dayMs = 24 * 3600 * 1000;

/** A Date's day in UTC, as YYYY-MM-DD. */
export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

/** The `days` days ending with the day of `now` (UTC), oldest first. */
export function daysEndingAt(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, index) => dayOf(new Date(today - (days - 1 - index) * dayMs)));
}

/** Pure: the per-day totals and the top commands from the day-and-command counts of the period. */
export function summariseUsage(
  period: readonly string[],
  counts: ReadonlyArray<{ date: string; command: string; count: number; kind?: CommandKindName }>,
  limit = topCommandsLimit,
): CommandUsageReport {
  const perDay = new Map(period.map((date) => [date, 0]));
  const perCommand = new Map<string, number>();
  const byKind = { custom: 0, builtIn: 0, game: 0 };
  for (const { date, command, count, kind = 'custom' } of counts) {
    if (!perDay.has(date)) continue;
    perDay.set(date, (perDay.get(date) ?? 0) + count);
    perCommand.set(command, (perCommand.get(command) ?? 0) + count);
    byKind[kind === 'built-in' ? 'builtIn' : kind] += count;
  }
  const topCommands = [...perCommand]
    .map(([command, executions]) => ({ command, executions }))
    .sort((a, b) => b.executions - a.executions || (a.command < b.command ? -1 : a.command > b.command ? 1 : 0))
    .slice(0, limit);
  return { days: [...perDay].map(([date, executions]) => ({ date, executions })), topCommands, byKind };
}

/**
 * The key an event is remembered under inside the day's document: the event id itself when it is
 * a plain token (a UUID), else a hash of it, so it is always a safe field name.
 */
export function seenKeyOf(eventId: string): string {
  if (/^[A-Za-z0-9_-]{1,128}$/.test(eventId)) return eventId;
  return `h_${createHash('sha256').update(eventId).digest('hex')}`;
}

export interface Analytics {
  stats(): Promise<AdminStats>;
  /** command.executed → one more execution of that command on that day, once per event id. */
  recordExecution(message: CommandExecuted): Promise<void>;
  commandUsage(days: number): Promise<CommandUsageReport>;
}

export function createAnalytics({
  repo,
  counter,
  clock,
  log,
}: {
  repo: AuthRepository;
  counter: CommandCounter;
  clock: Clock;
  log: Logger;
}): Analytics {
  return {
    async stats() {
      const [users, totalCommands, totalAuditLogs] = await Promise.all([
        repo.users.countByActive(),
        repo.userCommands.countAll(),
        repo.auditLog.count(),
      ]);
      return {
        totalUsers: users.total,
        activeUsers: users.active,
        inactiveUsers: users.total - users.active,
        totalCommands,
        totalAuditLogs,
      };
    },

    async recordExecution(message) {
      const { eventId } = message;
      const command = message.command.trim().replace(/^\$/, '').toLowerCase();
      // the execution's own time; a message without one (an older producer) falls back to occurred_at
      const at = message.executedAt ? dateOf(message.executedAt) : dateOf(message.occurredAt);
      if (!eventId || !command || command.length > 100 || at.getTime() === 0) {
        log.debug({ eventId, command: message.command }, 'command.executed ignored: no event id, command or time');
        return;
      }
      const kind = kindNames[message.kind] ?? 'custom';
      const date = dayOf(at);
      const isCounted = await counter.record({
        seenKey: seenKeyOf(eventId),
        usageId: `${date}:${command}`,
        date,
        command,
        kind,
      });
      if (!isCounted) log.debug({ eventId }, 'command.executed delivered again: counted already');
    },

    async commandUsage(days) {
      const period = daysEndingAt(clock.now(), days);
      const stored = await repo.commandUsage.between(period[0] ?? '', period[period.length - 1] ?? '');
      // what this instance counted since its last flush shows at once (summariseUsage adds them up)
      return summariseUsage(period, [...stored, ...counter.unflushed().values()]);
    },
  };
}
