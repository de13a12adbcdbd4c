import {
  allChannelsAnalyticsQuerySchema,
  streamAnalyticsQuerySchema,
  type StreamAnalytics,
} from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireAdmin, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { parseQuery } from '@kickstand/platform/http';
import { allChannels, type StreamAnalyticsCounter } from './stream-analytics';

/**
 * GET /api/analytics/stream?range=last-stream|7d|30d: the signed-in streamer's own channel.
 * GET /api/admin/analytics/stream?range=7d|30d: every channel together (administrators).
 */
export function analyticsRoutes({
  analytics,
  tokens,
}: {
  analytics: StreamAnalyticsCounter;
  tokens: TokenVerifier;
}): Router {
  const router = Router();
  router.get('/api/analytics/stream', requireUser(tokens), async (req, res) => {
    const { range } = parseQuery(streamAnalyticsQuerySchema, req);
    const data: StreamAnalytics = await analytics.report(currentUser(req).userId, range);
    res.json({ success: true, data });
  });
  router.get('/api/admin/analytics/stream', requireAdmin(tokens), async (req, res) => {
    const { range } = parseQuery(allChannelsAnalyticsQuerySchema, req);
    const data: StreamAnalytics = await analytics.report(allChannels, range);
    res.json({ success: true, data });
  });
  return router;
}
