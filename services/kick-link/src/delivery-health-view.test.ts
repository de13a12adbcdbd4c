import type { DeliveryHealthDoc } from './delivery-health-store';
import { unhealthyReasons, viewOf } from './delivery-health-view';
import type { RunningBotDoc } from './running-bots';

const now = new Date('2026-11-25T18:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

const runningBot = (runningSince = minutesAgo(120)): RunningBotDoc => ({
  _id: 'u-1',
  isRunning: true,
  runningSince,
  occurredAt: runningSince,
  broadcasterUserId: '42',
  nextReconcileAt: null,
  reconcileOwner: null,
});

const stoppedBot: RunningBotDoc = { ...runningBot(), isRunning: false, runningSince: null };

const liveDoc = (lastDeliveryMinutesAgo: number | null, liveCheckedMinutesAgo = 5): DeliveryHealthDoc => ({
  _id: '42',
  live: { isLive: true, checkedAt: minutesAgo(liveCheckedMinutesAgo) },
  ...(lastDeliveryMinutesAgo === null
    ? {}
    : { deliveries: { accepted: 1, lastReceivedAt: minutesAgo(lastDeliveryMinutesAgo) } }),
});

const silent = 'The channel is live but nothing arrived from Kick for 10 minutes';

describe('the unhealthy rule', () => {
  test('when nothing is known about a channel, then it is healthy', () => {
    expect(unhealthyReasons(null, null, now)).toEqual([]);
  });

  test("when a running bot's live channel had no delivery for more than 10 minutes, then it is flagged silent", () => {
    expect(unhealthyReasons(liveDoc(11), runningBot(), now)).toEqual([silent]);
    expect(unhealthyReasons(liveDoc(null), runningBot(), now)).toEqual([silent]);
  });

  test('when the channel had a delivery within 10 minutes, or the bot started less than 10 minutes ago, then it is not silent', () => {
    expect(unhealthyReasons(liveDoc(9), runningBot(), now)).toEqual([]);
    expect(unhealthyReasons(liveDoc(null), runningBot(minutesAgo(3)), now)).toEqual([]);
  });

  test('when the bot is stopped, the channel is offline or the live state is older than 20 minutes, then silence is no problem', () => {
    expect(unhealthyReasons(liveDoc(60), stoppedBot, now)).toEqual([]);
    expect(unhealthyReasons(liveDoc(60), null, now)).toEqual([]);
    expect(
      unhealthyReasons({ ...liveDoc(60), live: { isLive: false, checkedAt: minutesAgo(1) } }, runningBot(), now),
    ).toEqual([]);
    expect(unhealthyReasons(liveDoc(60, 21), runningBot(), now)).toEqual([]);
  });

  test('when the chat subscription is missing for a running bot, then it is flagged; a missing best-effort event is not', () => {
    const doc = (event: string): DeliveryHealthDoc => ({
      _id: '42',
      subscriptions: { checkedAt: minutesAgo(1), present: [], missing: [{ event, reason: 'no' }] },
    });
    expect(unhealthyReasons(doc('chat.message.sent'), runningBot(), now)).toEqual([
      'The chat subscription is missing at Kick',
    ]);
    expect(unhealthyReasons(doc('kicks.gifted'), runningBot(), now)).toEqual([]);
    expect(unhealthyReasons(doc('chat.message.sent'), stoppedBot, now)).toEqual([]);
  });

  test('when a reply failed, Kick erred or a delivery was dead-lettered within the hour, then each is flagged; older ones are not', () => {
    const doc = (minutes: number): DeliveryHealthDoc => ({
      _id: '42',
      lastReplyFailure: { at: minutesAgo(minutes), sender: 'bot-account', result: 'failed', error: 'x' },
      lastKickError: { at: minutesAgo(minutes), message: 'x' },
      deadLetters: { count: 1, lastAt: minutesAgo(minutes), lastReason: 'x' },
    });
    expect(unhealthyReasons(doc(60), null, now)).toEqual([
      'A reply failed in the last hour',
      'Kick answered with an error in the last hour',
      'A delivery could not be used in the last hour',
    ]);
    expect(unhealthyReasons(doc(61), null, now)).toEqual([]);
  });
});

describe('the view', () => {
  test('when a channel has no document yet, then every count is zero and it is healthy', () => {
    expect(viewOf('42', 'streamer', null, null, now)).toEqual({
      broadcasterUserId: '42',
      kickUsername: 'streamer',
      isBotRunning: false,
      isHealthy: true,
      problems: [],
      subscriptions: null,
      deliveries: { accepted: 0, lastReceivedAt: null, lastSentAt: null, lastLagMs: null },
      live: null,
      refused: { 'bad-signature': 0, 'stale-timestamp': 0, 'too-large': 0 },
      deadLetters: { count: 0, lastAt: null, lastReason: null },
      replies: {
        'bot-account': { sent: 0, failed: 0, dropped: 0 },
        'streamer-bot': { sent: 0, failed: 0, dropped: 0 },
        'streamer-user': { sent: 0, failed: 0, dropped: 0 },
      },
      lastReplyFailure: null,
      lastKickError: null,
      updatedAt: null,
    });
  });
});
