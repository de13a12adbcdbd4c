import { randomUUID } from 'node:crypto';
import { Router, type Response } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { botMessages } from './bots';
import type { BotRunner } from './runner';

/** The request id the HTTP kit gave this request (the gateway's x-request-id, also in the logs), for bot.control. */
export function requestIdOfAnswer(res: Response): string {
  const id = res.getHeader('x-request-id');
  return typeof id === 'string' && id !== '' ? id : randomUUID();
}

/**
 * The spec's bot calls (§7) for the signed-in streamer's own bot. Start and stop are idempotent:
 * starting a running bot (or stopping a stopped one) answers 200 with the status and publishes
 * nothing. Start's body is accepted and ignored (the spec passes one through without a shape).
 */
export function botRoutes({ runner, tokens }: { runner: BotRunner; tokens: TokenVerifier }): Router {
  const router = Router();
  router.use('/api/platform/bot', requireUser(tokens));

  router.post('/api/platform/bot/start', async (req, res) => {
    const { isChanged, view } = await runner.start(currentUser(req).userId, requestIdOfAnswer(res));
    res.json({ success: true, message: isChanged ? botMessages.started : botMessages.alreadyRunning, data: view });
  });

  router.post('/api/platform/bot/stop', async (req, res) => {
    const { isChanged, view } = await runner.stop(currentUser(req).userId, requestIdOfAnswer(res));
    res.json({ success: true, message: isChanged ? botMessages.stopped : botMessages.notRunning, data: view });
  });

  router.get('/api/platform/bot/status', async (req, res) => {
    res.json({ success: true, data: await runner.status(currentUser(req).userId) });
  });

  return router;
}
