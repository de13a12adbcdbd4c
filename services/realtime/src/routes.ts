import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import type { ChatLog } from './chat-log';

/** GET /api/realtime/chat: the same history a socket gets on connect (`{ messages, events }`), for clients that prefer HTTP. */
export function realtimeRoutes({ chatLog, tokens }: { chatLog: ChatLog; tokens: TokenVerifier }): Router {
  const router = Router();
  router.get('/api/realtime/chat', requireUser(tokens), async (req, res) => {
    res.json({ success: true, data: await chatLog.recent(currentUser(req).userId) });
  });
  return router;
}
