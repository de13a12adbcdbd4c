import { Router } from 'express';
import { z } from 'zod';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { parseBody } from '@kickstand/platform/http';
import { commandMessages, type Commands } from './commands';
import { responseVariables } from '@kickstand/chat-language';

// Strict: an unknown field or a value that is not a string (e.g. `{"$gt":""}`) is a 400 and never
// reaches a query. A missing field is an empty string, so the domain answers with the spec's message.
const nameField = z.string({ error: 'command must be a string' }).default('');
const responseField = z.string({ error: 'response must be a string' }).default('');

export const addCommandBodySchema = z.strictObject({ command: nameField, response: responseField });
export type AddCommandBody = z.infer<typeof addCommandBodySchema>;

export const removeCommandBodySchema = z.strictObject({ command: nameField });
export type RemoveCommandBody = z.infer<typeof removeCommandBodySchema>;

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

  router.delete('/api/commands', async (req, res) => {
    const body = parseBody(removeCommandBodySchema, req);
    const removed = await commands.remove(currentUser(req).userId, body);
    res.json({ success: true, message: commandMessages.removed(removed.command), data: removed });
  });

  return router;
}
