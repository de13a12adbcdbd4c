import { availableParallelism } from 'node:os';
import { createDeliveryMaker, plannedStart } from './presign';

describe('plannedStart', () => {
  test('when a phase is signed, then it starts on a whole second, after twice the expected signing time and a second', () => {
    const now = Date.parse('2026-11-25T20:00:00.250Z');
    const signingMs = (10_000 * 0.7) / Math.max(1, availableParallelism());

    const start = plannedStart(10_000, now);

    expect(start % 1000).toBe(0);
    expect(start).toBeGreaterThanOrEqual(now + 2 * signingMs + 1000);
    expect(start).toBeLessThan(now + 2 * signingMs + 2000);
  });
});

describe('createDeliveryMaker', () => {
  test('when a phase runs longer than the signature window, then each delivery is stamped with its own planned send time', () => {
    const startsAt = Date.parse('2026-11-25T20:00:00.000Z');
    const channel = {
      userId: 'u1',
      username: 'streamer',
      kickUserId: 42,
      kickUsername: 'streamer',
      subscriptionId: 'sub-1',
      commands: [],
    };
    const message = (atMs: number) => ({
      atMs,
      channel: 0,
      senderUserId: 7,
      senderUsername: 'viewer',
      content: 'hi',
      isCommand: false,
      expectsReply: false,
      isWarmup: false,
    });

    const makeDelivery = createDeliveryMaker([channel], startsAt, startsAt - 90_000);
    const unsigned = [message(0), message(400_250)].map((planned) => makeDelivery(planned).delivery);

    expect(unsigned.map((delivery) => delivery.timestamp)).toEqual(['2026-11-25T20:00:00Z', '2026-11-25T20:06:40Z']);
    expect(unsigned.map((delivery) => (JSON.parse(delivery.body) as { created_at: string }).created_at)).toEqual([
      '2026-11-25T20:00:00Z',
      '2026-11-25T20:06:40Z',
    ]);
  });
});
