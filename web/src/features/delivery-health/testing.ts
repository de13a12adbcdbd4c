import type { DeliveryHealth } from './health-api';

/** A healthy channel's delivery health, with `overrides` on top. */
export function aHealth(overrides: Partial<DeliveryHealth> = {}): DeliveryHealth {
  return {
    broadcasterUserId: '4377088',
    kickUsername: 'some_streamer',
    isBotRunning: true,
    isHealthy: true,
    problems: [],
    subscriptions: {
      checkedAt: '2026-11-25T18:00:00.000Z',
      present: ['chat.message.sent', 'kicks.gifted'],
      missing: [],
      lastRecreatedAt: null,
      lastRecreatedEvents: [],
      duplicatesRemoved: 0,
    },
    deliveries: {
      accepted: 12,
      lastReceivedAt: '2026-11-25T18:01:00.000Z',
      lastSentAt: '2026-11-25T18:00:59.750Z',
      lastLagMs: 250,
    },
    live: { isLive: true, checkedAt: '2026-11-25T18:00:00.000Z' },
    refused: { 'bad-signature': 0, 'stale-timestamp': 0, 'too-large': 0 },
    deadLetters: { count: 0, lastAt: null, lastReason: null },
    replies: {
      'bot-account': { sent: 0, failed: 0, dropped: 0 },
      'streamer-bot': { sent: 5, failed: 0, dropped: 0 },
      'streamer-user': { sent: 0, failed: 0, dropped: 0 },
    },
    lastReplyFailure: null,
    lastKickError: null,
    updatedAt: '2026-11-25T18:01:00.000Z',
    ...overrides,
  };
}
