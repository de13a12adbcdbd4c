import {
  maxTimersPerUser,
  timerBodySchema,
  timerMessages,
  timerParamsSchema,
  timerToggleBodySchema,
} from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import type { Clock } from '@kickstand/platform/clock';
import { conflict, notFound } from '@kickstand/platform/errors';
import { parseBody, parseParams } from '@kickstand/platform/http';
import type { ChannelsRepository } from './channels';
import { timerView, type TimersRepository } from './timers';

/** The signed-in streamer's timers: list, add, save, switch on/off, delete. */
export function timerRoutes(deps: {
  timers: TimersRepository;
  channels: ChannelsRepository;
  tokens: TokenVerifier;
  clock: Clock;
}): Router {
  const { timers, channels, clock } = deps;
  const router = Router();
  router.use('/api/timers', requireUser(deps.tokens));
  // the scheduler looks only at channels with enabled timers
  const recount = async (userId: string) => channels.setEnabledTimers(userId, await timers.countEnabled(userId));

  router.get('/api/timers', async (req, res) => {
    res.json({ success: true, data: (await timers.list(currentUser(req).userId)).map(timerView) });
  });

  router.post('/api/timers', async (req, res) => {
    const body = parseBody(timerBodySchema, req);
    const { userId } = currentUser(req);
    if ((await timers.count(userId)) >= maxTimersPerUser) throw conflict(timerMessages.limitReached);
    const doc = await timers.add(userId, body, clock.now().getTime());
    await recount(userId);
    res.status(201).json({ success: true, message: timerMessages.added, data: timerView(doc) });
  });

  router.put('/api/timers/:id', async (req, res) => {
    const { id } = parseParams(timerParamsSchema, req);
    const body = parseBody(timerBodySchema, req);
    const { userId } = currentUser(req);
    const doc = await timers.update(userId, id, body);
    if (!doc) throw notFound(timerMessages.notFound);
    await recount(userId);
    res.json({ success: true, message: timerMessages.updated, data: timerView(doc) });
  });

  router.post('/api/timers/:id/toggle', async (req, res) => {
    const { id } = parseParams(timerParamsSchema, req);
    const { enabled } = parseBody(timerToggleBodySchema, req);
    const { userId } = currentUser(req);
    const doc = await timers.update(userId, id, { enabled });
    if (!doc) throw notFound(timerMessages.notFound);
    await recount(userId);
    res.json({
      success: true,
      message: enabled ? timerMessages.enabledNow : timerMessages.disabledNow,
      data: timerView(doc),
    });
  });

  router.delete('/api/timers/:id', async (req, res) => {
    const { id } = parseParams(timerParamsSchema, req);
    const { userId } = currentUser(req);
    if (!(await timers.remove(userId, id))) throw notFound(timerMessages.notFound);
    await recount(userId);
    res.json({ success: true, message: timerMessages.deleted, data: { id } });
  });

  return router;
}
