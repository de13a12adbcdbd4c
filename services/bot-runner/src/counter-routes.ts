import {
  counterMessages,
  counterParamsSchema,
  maxCountersPerUser,
  setCounterBodySchema,
  type Counter,
} from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import type { Clock } from '@kickstand/platform/clock';
import { conflict, notFound } from '@kickstand/platform/errors';
import { parseBody, parseParams } from '@kickstand/platform/http';
import type { CounterDoc, CountersRepository } from './counters';

const counterView = (doc: CounterDoc): Counter => ({
  name: doc.name,
  value: doc.value,
  updatedAt: doc.updatedAt.toISOString(),
});

/** The signed-in streamer's named counters: list, set (creates), reset to 0, delete. Names in any letter case. */
export function counterRoutes(deps: { counters: CountersRepository; tokens: TokenVerifier; clock: Clock }): Router {
  const { counters, clock } = deps;
  const router = Router();
  router.use('/api/counters', requireUser(deps.tokens));
  const nameOf = (req: Parameters<typeof parseParams>[1]) => parseParams(counterParamsSchema, req).name.toLowerCase();

  router.get('/api/counters', async (req, res) => {
    res.json({ success: true, data: (await counters.list(currentUser(req).userId)).map(counterView) });
  });

  router.put('/api/counters/:name', async (req, res) => {
    const name = nameOf(req);
    const { value } = parseBody(setCounterBodySchema, req);
    const { userId } = currentUser(req);
    const isNew = !(await counters.get(userId, name));
    if (isNew && (await counters.count(userId)) >= maxCountersPerUser) throw conflict(counterMessages.limitReached);
    const doc = await counters.set(userId, name, value, clock.now());
    res.json({ success: true, message: counterMessages.set(name, value), data: counterView(doc) });
  });

  router.post('/api/counters/:name/reset', async (req, res) => {
    const name = nameOf(req);
    const doc = await counters.reset(currentUser(req).userId, name, clock.now());
    if (!doc) throw notFound(counterMessages.notFound(name));
    res.json({ success: true, message: counterMessages.reset(name), data: counterView(doc) });
  });

  router.delete('/api/counters/:name', async (req, res) => {
    const name = nameOf(req);
    if (!(await counters.remove(currentUser(req).userId, name))) throw notFound(counterMessages.notFound(name));
    res.json({ success: true, message: counterMessages.deleted(name), data: { name } });
  });

  return router;
}
