import {
  channelCommandsParamsSchema,
  addCommandBodySchema,
  commandParamsSchema,
  removeCommandBodySchema,
  updateCommandBodySchema,
} from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { parseBody, parseParams } from '@kickstand/platform/http';
import { AppError } from '@kickstand/platform/errors';
import type { Channels } from './channels';
import { commandMessages, type Commands } from './commands';
import { responseVariables } from '@kickstand/chat-language';

/** The spec's /api/commands calls (§7), for the signed-in streamer's own commands only. */
export function commandRoutes({
  commands,
  channels,
  tokens,
}: {
  commands: Commands;
  channels: Channels;
  tokens: TokenVerifier;
}): Router {
  const router = Router();

  // public (before the token check): what viewers of a channel can type, for the public commands page
  router.get('/api/commands/channel/:channel', async (req, res) => {
    const { channel } = parseParams(channelCommandsParamsSchema, req);
    const owner = await channels.find(channel);
    if (!owner) {
      throw new AppError({ code: 'channel-not-found', status: 404, message: commandMessages.channelNotFound(channel) });
    }
    const listed = (await commands.list(owner.userId)).filter((command) => command.enabled);
    res.json({
      success: true,
      data: { channel: owner.kickUsername, commands: listed.map(({ enabled: _enabled, ...shown }) => shown) },
    });
  });

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
