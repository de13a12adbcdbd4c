import { streamAnalyticsQuerySchema, type StreamAnalytics } from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { parseQuery } from '@kickstand/platform/http';
import type { StreamAnalyticsCounter } from './stream-analytics';

/** GET /api/analytics/stream?range=last-stream|7d|30d: the signed-in streamer's own channel. */
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
  return router;
}
