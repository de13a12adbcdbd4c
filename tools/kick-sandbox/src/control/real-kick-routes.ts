import { Router } from 'express';
import { z } from 'zod';
import { parseBody } from '@kickstand/platform/http';
import { realKickPreset, realKickSettingsPatchSchema } from '../real-kick';
import type { ControlDeps } from './control-deps';

const dropSubscriptionsSchema = z.strictObject({
  /** Absent: every channel. */
  broadcasterUserId: z.number().int().positive().optional(),
  /** Absent: every event type. */
  event: z.string().min(1).max(100).optional(),
});

/**
 * Real Kick's undocumented behaviour (kick-api.md §5.1, §7, §8.10): read, change, apply the
 * preset, reset to the documented behaviour; and drop subscriptions without notice.
 */
export function controlRealKickRoutes(deps: ControlDeps): Router {
  const { realKick, subscriptions } = deps;
  const router = Router();

  router.get('/real-kick', (_req, res) => {
    res.json({ success: true, data: realKick.get() });
  });

  router.patch('/real-kick', (req, res) => {
    res.json({ success: true, data: realKick.patch(parseBody(realKickSettingsPatchSchema, req)) });
  });

  /** The preset on top of the documented behaviour (not of the current settings). */
  router.post('/real-kick/preset', (_req, res) => {
    realKick.reset();
    res.json({ success: true, data: realKick.patch(realKickPreset) });
  });

  router.delete('/real-kick', (_req, res) => {
    res.json({ success: true, data: realKick.reset() });
  });

  router.post('/subscriptions/drop', async (req, res) => {
    const body = parseBody(dropSubscriptionsSchema, req);
    res.json({ success: true, data: { count: await subscriptions.removeWhere(body) } });
  });

  return router;
}
