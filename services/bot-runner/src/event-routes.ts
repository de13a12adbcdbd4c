import { eventMessagesBodySchema, eventMessageTexts, type StreamStateView } from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import type { Clock } from '@kickstand/platform/clock';
import { parseBody } from '@kickstand/platform/http';
import type { ChannelsRepository } from './channels';
import { eventMessagesView, type EventSettingsRepository } from './event-settings';

/** The signed-in streamer's event messages, and their stream as Kick's livestream events told it. */
export function eventRoutes(deps: {
  settings: EventSettingsRepository;
  channels: ChannelsRepository;
  tokens: TokenVerifier;
  clock: Clock;
}): Router {
  const { settings, channels, clock } = deps;
  const router = Router();
  router.use(['/api/event-messages', '/api/stream'], requireUser(deps.tokens));

  router.get('/api/event-messages', async (req, res) => {
    res.json({ success: true, data: eventMessagesView(await settings.get(currentUser(req).userId)) });
  });

  router.put('/api/event-messages', async (req, res) => {
    const body = parseBody(eventMessagesBodySchema, req);
    const saved = await settings.save(currentUser(req).userId, body, clock.now().getTime());
    res.json({ success: true, message: eventMessageTexts.saved, data: eventMessagesView(saved) });
  });

  router.get('/api/stream', async (req, res) => {
    const doc = await channels.get(currentUser(req).userId);
    const data: StreamStateView = {
      isLive: doc?.isLive ?? false,
      title: doc?.title ?? '',
      game: doc?.game ?? '',
      startedAt: doc?.isLive && doc.startedAtMs !== null ? new Date(doc.startedAtMs).toISOString() : null,
    };
    res.json({ success: true, data });
  });

  return router;
}
