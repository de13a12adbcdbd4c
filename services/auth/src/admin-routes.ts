import {
  analyticsQuerySchema,
  auditQuerySchema,
  noQuerySchema,
  roleBodySchema,
  statusBodySchema,
  userIdParamsSchema,
  userListQuerySchema,
} from '@kickstand/api-contract';
import { currentUser, requireAdmin, type TokenVerifier } from '@kickstand/platform/auth';
import { parseBody, parseParams, parseQuery } from '@kickstand/platform/http';
import { Router } from 'express';
import type { Analytics } from './analytics';
import type { AuditLog } from './audit-log';
import { paginationOf, type Users } from './users';

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
    parseQuery(noQuerySchema, req);
    res.json({ success: true, data: await analytics.stats() });
  });

  router.get('/api/admin/analytics', async (req, res) => {
    const { days } = parseQuery(analyticsQuerySchema, req);
    res.json({ success: true, data: await analytics.commandUsage(days) });
  });

  return router;
}
