import { importApplyBodySchema, importMessages, importPreviewBodySchema } from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { parseBody } from '@kickstand/platform/http';
import type { CommandImport } from './command-import';

/** POST /api/commands/import/preview and POST /api/commands/import, for the signed-in streamer. */
export function commandImportRoutes({ imports, tokens }: { imports: CommandImport; tokens: TokenVerifier }): Router {
  const router = Router();
  router.use('/api/commands/import', requireUser(tokens));

  router.post('/api/commands/import/preview', async (req, res) => {
    const body = parseBody(importPreviewBodySchema, req);
    res.json({ success: true, data: await imports.preview(currentUser(req).userId, body) });
  });

  router.post('/api/commands/import', async (req, res) => {
    const body = parseBody(importApplyBodySchema, req);
    const result = await imports.apply(currentUser(req).userId, body);
    res.json({ success: true, message: importMessages.imported(result.imported.length), data: result });
  });

  return router;
}
