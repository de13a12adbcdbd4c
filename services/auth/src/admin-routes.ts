import { currentUser, requireAdmin, roles, type TokenVerifier } from '@kickstand/platform/auth';
import { parseBody, parseParams, parseQuery } from '@kickstand/platform/http';
import { Router } from 'express';
import { z } from 'zod';
import { defaultAnalyticsDays, maxAnalyticsDays, type Analytics } from './analytics';
import type { AuditLog } from './audit-log';
import { paginationOf, type Users } from './users';

/** Most a page may hold: the admin user page asks for 200 (spec §9). */
export const maxPageSize = 200;

const pageSchema = z.coerce
  .number({ error: 'Page must be a whole number of 1 or more' })
  .int('Page must be a whole number of 1 or more')
  .min(1, 'Page must be a whole number of 1 or more')
  .default(1);
const limitSchema = z.coerce
  .number({ error: `Limit must be a whole number from 1 to ${maxPageSize}` })
  .int(`Limit must be a whole number from 1 to ${maxPageSize}`)
  .min(1, `Limit must be a whole number from 1 to ${maxPageSize}`)
  .max(maxPageSize, `Limit must be a whole number from 1 to ${maxPageSize}`)
  .default(20);
const oneOf = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of ${values.join(', ')}` });

export const userListQuerySchema = z
  .object({
    search: z
      .string({ error: 'Search must be text' })
      .trim()
      .max(100, 'Search must be at most 100 characters')
      .optional(),
    page: pageSchema,
    limit: limitSchema,
    role: oneOf('Role', ['ALL', ...roles]).default('ALL'),
    status: oneOf('Status', ['ALL', 'ACTIVE', 'INACTIVE']).default('ALL'),
    sort: oneOf('Sort', ['createdAt', 'username', 'email', 'lastLogin']).default('createdAt'),
    order: oneOf('Order', ['asc', 'desc']).default('desc'),
    hasKick: oneOf('hasKick', ['true', 'false'])
      .transform((value) => value === 'true')
      .optional(),
  })
  .strict();

export const userIdParamsSchema = z.object({ id: z.string().min(1).max(128) });

export const statusBodySchema = z.object({ isActive: z.boolean({ error: 'isActive must be true or false' }) }).strict();

export const roleBodySchema = z.object({ role: oneOf('Role', roles) }).strict();

export const auditQuerySchema = z
  .object({
    page: pageSchema,
    limit: limitSchema,
    action: z
      .string({ error: 'Action must be text' })
      .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'Action must be a name such as user.deactivated')
      .optional(),
  })
  .strict();

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

/** The super administrator's doors under /api/admin (spec §7); every one refuses a USER with 403. */
export function adminRoutes({
  users,
  audit,
  analytics,
  tokens,
}: {
  users: Users;
  audit: AuditLog;
  analytics: Analytics;
  tokens: TokenVerifier;
}): Router {
  const router = Router();
  router.use('/api/admin', requireAdmin(tokens));

  router.get('/api/admin/users', async (req, res) => {
    const query = parseQuery(userListQuerySchema, req);
    res.json({ success: true, data: await users.list(query) });
  });

  router.patch('/api/admin/users/:id/status', async (req, res) => {
    const { id } = parseParams(userIdParamsSchema, req);
    const { isActive } = parseBody(statusBodySchema, req);
    const { user, message } = await users.setStatus(currentUser(req), id, isActive);
    res.json({ success: true, data: user, message });
  });

  router.patch('/api/admin/users/:id/role', async (req, res) => {
    const { id } = parseParams(userIdParamsSchema, req);
    const { role } = parseBody(roleBodySchema, req);
    const { user, message } = await users.setRole(currentUser(req), id, role);
    res.json({ success: true, data: user, message });
  });

  router.get('/api/admin/audit', async (req, res) => {
    const { page, limit, action } = parseQuery(auditQuerySchema, req);
    const { logs, total } = await audit.list({ action, skip: (page - 1) * limit, limit });
    res.json({ success: true, data: { logs, pagination: paginationOf(page, limit, total) } });
  });

  router.get('/api/admin/stats', async (req, res) => {
    parseQuery(z.object({}).strict(), req);
    res.json({ success: true, data: await analytics.stats() });
  });

  router.get('/api/admin/analytics', async (req, res) => {
    const { days } = parseQuery(analyticsQuerySchema, req);
    res.json({ success: true, data: await analytics.commandUsage(days) });
  });

  return router;
}
