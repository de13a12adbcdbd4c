import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import type { Commands } from '../commands';
import type { CommandUsage } from './command-usage';

/** GET /api/commands/usage: how often each of the signed-in streamer's commands ran. */
export function commandUsageRoutes({
  commands,
  usage,
  tokens,
}: {
  commands: Pick<Commands, 'list'>;
  usage: CommandUsage;
  tokens: TokenVerifier;
}): Router {
  const router = Router();
  router.get('/api/commands/usage', requireUser(tokens), async (req, res) => {
    const { userId } = currentUser(req);
    const names = (await commands.list(userId)).map((command) => command.command);
    res.json({ success: true, data: await usage.statsOf(userId, names) });
  });
  return router;
}
