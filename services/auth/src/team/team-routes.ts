import { editorParamsSchema, inviteEditorBodySchema, teamActivityLimit, teamMessages } from '@kickstand/api-contract';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { parseBody, parseParams } from '@kickstand/platform/http';
import { Router } from 'express';
import type { AuditLog } from '../audit-log';
import type { Team } from './team';

/**
 * Team access: the owner's editors, and the channels the caller may edit. Guarded by requireUser,
 * which refuses a request acting for another channel here (403): editors never manage editors.
 */
export function teamRoutes({ team, audit, tokens }: { team: Team; audit: AuditLog; tokens: TokenVerifier }): Router {
  const router = Router();
  router.use('/api/team', requireUser(tokens));

  router.get('/api/team/editors', async (req, res) => {
    res.json({ success: true, data: await team.list(currentUser(req)) });
  });

  router.post('/api/team/editors', async (req, res) => {
    const { email } = parseBody(inviteEditorBodySchema, req);
    const editor = await team.invite(currentUser(req), email);
    res.status(201).json({ success: true, message: teamMessages.invited(editor.username), data: editor });
  });

  router.delete('/api/team/editors/:userId', async (req, res) => {
    const { userId } = parseParams(editorParamsSchema, req);
    const editor = await team.remove(currentUser(req), userId);
    res.json({ success: true, message: teamMessages.removed(editor.username), data: editor });
  });

  router.get('/api/team/channels', async (req, res) => {
    res.json({ success: true, data: await team.channelsOf(currentUser(req)) });
  });

  // the channel's team log for its owner: who was invited or removed, and what each editor changed
  router.get('/api/team/activity', async (req, res) => {
    res.json({ success: true, data: await audit.listForChannel(currentUser(req).userId, teamActivityLimit) });
  });

  return router;
}
