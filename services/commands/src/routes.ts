import {
  addCommandBodySchema,
  commandParamsSchema,
  removeCommandBodySchema,
  updateCommandBodySchema,
} from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { parseBody, parseParams } from '@kickstand/platform/http';
import { commandMessages, type Commands } from './commands';
import { responseVariables } from '@kickstand/chat-language';

/** The spec's /api/commands calls (§7), for the signed-in streamer's own commands only. */
export function commandRoutes({ commands, tokens }: { commands: Commands; tokens: TokenVerifier }): Router {
  const router = Router();
  router.use('/api/commands', requireUser(tokens));

  router.get('/api/commands', async (req, res) => {
    res.json({ success: true, data: await commands.list(currentUser(req).userId) });
  });

  router.get('/api/commands/variables', (_req, res) => {
    res.json({ success: true, data: responseVariables });
  });

  router.post('/api/commands', async (req, res) => {
    const body = parseBody(addCommandBodySchema, req);
    const added = await commands.add(currentUser(req).userId, body);
    res.status(201).json({ success: true, message: commandMessages.added(added.command), data: added });
  });

  router.patch('/api/commands/:name', async (req, res) => {
    const { name } = parseParams(commandParamsSchema, req);
    const body = parseBody(updateCommandBodySchema, req);
    const updated = await commands.update(currentUser(req).userId, name, body);
    res.json({ success: true, message: commandMessages.updated(updated.command), data: updated });
  });

  router.delete('/api/commands', async (req, res) => {
    const body = parseBody(removeCommandBodySchema, req);
    const removed = await commands.remove(currentUser(req).userId, body);
    res.json({ success: true, message: commandMessages.removed(removed.command), data: removed });
  });

  return router;
}
