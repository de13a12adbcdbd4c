import { z } from 'zod';
import { roles, userViewSchema } from './auth';
import { dataReply, isoDateTime, limitQuery, messageReply, pageQuery, paginationSchema } from './common';

// The super administrator's doors of auth (spec §7 and §9): users, audit log, figures.

/** Most a page of users may hold: the admin user page asks for 200 (spec §9). */
export const maxUserPageSize = 200;
export const defaultAnalyticsDays = 14;
export const maxAnalyticsDays = 90;

const oneOf = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of ${values.join(', ')}` });

export const userSortFields = ['createdAt', 'username', 'email', 'lastLogin'] as const;

export const userListQuerySchema = z
  .object({
    search: z
      .string({ error: 'Search must be text' })
      .trim()
      .max(100, 'Search must be at most 100 characters')
      .optional(),
    page: pageQuery(),
    limit: limitQuery(maxUserPageSize, 20),
    role: oneOf('Role', ['ALL', ...roles]).default('ALL'),
    status: oneOf('Status', ['ALL', 'ACTIVE', 'INACTIVE']).default('ALL'),
    sort: oneOf('Sort', userSortFields).default('createdAt'),
    order: oneOf('Order', ['asc', 'desc']).default('desc'),
    hasKick: oneOf('hasKick', ['true', 'false'])
      .transform((value) => value === 'true')
      .optional(),
  })
  .strict();
export type UserListQuery = z.infer<typeof userListQuerySchema>;
/** What the SPA puts in the query string. */
export type UserListParams = z.input<typeof userListQuerySchema>;

export const userPageSchema = z.object({ users: z.array(userViewSchema), pagination: paginationSchema });
export type UserPage = z.infer<typeof userPageSchema>;

export const statusBodySchema = z
  .object({ isActive: z.boolean({ error: 'isActive must be true or false' }) })
  .strict()
  .meta({ title: 'UserStatusBody' });
export type StatusBody = z.infer<typeof statusBodySchema>;

export const roleBodySchema = z
  .object({ role: oneOf('Role', roles) })
  .strict()
  .meta({ title: 'UserRoleBody' });
export type RoleBody = z.infer<typeof roleBodySchema>;

export const auditQuerySchema = z
  .object({
    page: pageQuery(),
    limit: limitQuery(maxUserPageSize, 20),
    action: z
      .string({ error: 'Action must be text' })
      .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'Action must be a name such as user.deactivated')
      .optional(),
  })
  .strict();
export type AuditQuery = z.input<typeof auditQuerySchema>;

/** One audit log line. */
export const auditEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  actor: z.object({ id: z.string(), username: z.string() }),
  target: z.object({ type: z.string(), id: z.string(), username: z.string() }),
  details: z.record(z.string(), z.string()),
  createdAt: isoDateTime(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = z.object({ logs: z.array(auditEntrySchema), pagination: paginationSchema });
export type AuditPage = z.infer<typeof auditPageSchema>;

/** auth's figures for the admin dashboard. */
export const adminStatsSchema = z.object({
  totalUsers: z.number().int(),
  activeUsers: z.number().int(),
  inactiveUsers: z.number().int(),
  /** Every user's custom commands: the sum of the users' `_count.commands`. */
  totalCommands: z.number().int(),
  totalAuditLogs: z.number().int(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

const daysMessage = `Days must be a whole number from 1 to ${maxAnalyticsDays}`;

export const analyticsQuerySchema = z
  .object({
    days: z.coerce
      .number({ error: daysMessage })
      .int(daysMessage)
      .min(1, daysMessage)
      .max(maxAnalyticsDays, daysMessage)
      .default(defaultAnalyticsDays),
  })
  .strict();

/** Command usage over the last `days` days, for all streamers. */
export const commandUsageSchema = z.object({
  /** Every day of the period (YYYY-MM-DD), oldest first, zero when nothing ran. */
  days: z.array(z.object({ date: z.string(), executions: z.number().int() })),
  /** The most executed commands of the period, most first (ties by name). */
  topCommands: z.array(z.object({ command: z.string(), executions: z.number().int() })),
  /** Every answered command of the period by kind: the streamers' own, the built-in lookups, the games. */
  byKind: z.object({ custom: z.number().int(), builtIn: z.number().int(), game: z.number().int() }),
});
export type CommandUsage = z.infer<typeof commandUsageSchema>;

export const userPageReplySchema = dataReply(userPageSchema);
export const userStatusReplySchema = messageReply(userViewSchema);
export const auditPageReplySchema = dataReply(auditPageSchema);
export const adminStatsReplySchema = dataReply(adminStatsSchema);
export const commandUsageReplySchema = dataReply(commandUsageSchema);
