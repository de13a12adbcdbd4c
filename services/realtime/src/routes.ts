import type { ChatHistory } from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import type { ChatLog } from './chat-log';

/** GET /api/realtime/chat: the same history a socket gets on connect (`{ messages, events }`), for clients that prefer HTTP. */
export function realtimeRoutes({ chatLog, tokens }: { chatLog: ChatLog; tokens: TokenVerifier }): Router {
  const router = Router();
  router.get('/api/realtime/chat', requireUser(tokens), async (req, res) => {
    // the socket's history payload is the HTTP contract's ChatHistory: a drift fails to compile here
    const data: ChatHistory = await chatLog.recent(currentUser(req).userId);
    res.json({ success: true, data });
  });
  return router;
}
