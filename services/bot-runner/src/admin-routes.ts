import { userIdParamsSchema } from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireAdmin, type TokenVerifier } from '@kickstand/platform/auth';
import { parseParams } from '@kickstand/platform/http';
import { botMessages } from './bots';
import { requestIdOfAnswer } from './routes';
import type { BotRunner } from './runner';

/**
 * The administrator's per-user bot switch (spec §7): enable or disable. Disabling stops a running
 * bot; only a user with a linked Kick account can be enabled; each change is audited
 * (audit.recorded, which auth writes into the audit log).
 */
export function adminBotRoutes({ runner, tokens }: { runner: BotRunner; tokens: TokenVerifier }): Router {
  const router = Router();
  const admin = requireAdmin(tokens);

  for (const [action, isEnabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    router.post(`/api/admin/users/:id/bot/${action}`, admin, async (req, res) => {
      const { id } = parseParams(userIdParamsSchema, req);
      const actor = currentUser(req);
      const result = await runner.setEnabled(
        id,
        isEnabled,
        { userId: actor.userId, username: actor.username },
        requestIdOfAnswer(res),
      );
      res.json({
        success: true,
        message: isEnabled ? botMessages.enabled : botMessages.disabled,
        data: { userId: id, botEnabled: result.botEnabled, ...result.view },
      });
    });
  }

  return router;
}
