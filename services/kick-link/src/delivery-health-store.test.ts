import { createSilentLogger } from '@kickstand/platform/log';
import type { Store } from '@kickstand/platform/store';
import { createFakeClock, createTestPlatform, type FakeClock, type TestPlatform } from '@kickstand/platform/testing';
import { createStoredDeliveryHealth, deliveryHealthDocs, unattributedId } from './delivery-health-store';

let platform: TestPlatform;
let clock: FakeClock;

beforeEach(async () => {
  clock = createFakeClock(new Date('2026-11-25T18:00:00.000Z'));
  platform = await createTestPlatform('kick-link', { clock });
});

afterEach(async () => {
  await platform.close();
});

const healthOn = (store: Store) =>
  createStoredDeliveryHealth({ store, clock, log: createSilentLogger(), flushIntervalMs: 0 });

const docOf = (id: string) => deliveryHealthDocs(platform.store).findOne({ _id: id });

const at = (iso: string) => new Date(iso);

describe('stored delivery health', () => {
  test('when reports are made, then nothing is stored until the flush, and the flush stores them aggregated', async () => {
    const health = healthOn(platform.store);

    health.deliveryAccepted('42', at('2026-11-25T17:59:58.000Z'), at('2026-11-25T17:59:59.500Z'));
    health.deliveryAccepted('42', at('2026-11-25T17:59:59.000Z'), at('2026-11-25T18:00:00.000Z'));
    health.deliveryRefused('42', 'stale-timestamp');
    health.reply('42', 'streamer-bot', 'sent');
    health.reply('42', 'streamer-bot', 'failed', 'Kick refused the message');
    health.reply('42', 'bot-account', 'dropped');
    health.kickError('42', 'Kick could not be reached');
    health.deadLettered('42', 'unknown event type: x.y');
    expect(await docOf('42')).toBeNull();

    await health.flush();

    const doc = await docOf('42');
    expect(doc).toEqual({
      _id: '42',
      deliveries: {
        accepted: 2,
        lastReceivedAt: at('2026-11-25T18:00:00.000Z'),
        lastSentAt: at('2026-11-25T17:59:59.000Z'),
        lastLagMs: 1000,
      },
      refused: { 'stale-timestamp': 1 },
      deadLetters: { count: 1, lastAt: clock.now(), lastReason: 'unknown event type: x.y' },
      replies: { 'streamer-bot': { sent: 1, failed: 1 }, 'bot-account': { dropped: 1 } },
      lastReplyFailure: { at: clock.now(), sender: 'bot-account', result: 'dropped', error: '' },
      lastKickError: { at: clock.now(), message: 'Kick could not be reached' },
      updatedAt: clock.now(),
    });
  });

  test('when a delivery received earlier is reported after a later one, then the last delivery stays the later one', async () => {
    const health = healthOn(platform.store);

    health.deliveryAccepted('42', at('2026-11-25T17:59:58.000Z'), at('2026-11-25T17:59:59.000Z'));
    health.deliveryAccepted('42', at('2026-11-25T17:59:50.000Z'), at('2026-11-25T17:59:58.000Z'));
    await health.flush();
    health.deliveryAccepted('42', at('2026-11-25T17:59:59.000Z'), at('2026-11-25T18:00:00.000Z'));
    health.deliveryAccepted('42', at('2026-11-25T17:59:57.000Z'), at('2026-11-25T17:59:58.500Z'));
    await health.flush();

    expect((await docOf('42'))?.deliveries).toEqual({
      accepted: 4,
      lastReceivedAt: at('2026-11-25T18:00:00.000Z'),
      lastSentAt: at('2026-11-25T17:59:59.000Z'),
      lastLagMs: 1000,
    });
  });

  test('when two flushes and two instances report on one channel, then the stored counts are the sum of all', async () => {
    const first = healthOn(platform.store);
    const second = healthOn(platform.store);

    first.reply('42', 'bot-account', 'sent');
    first.deliveryRefused('42', 'too-large');
    await first.flush();
    first.reply('42', 'bot-account', 'sent');
    second.reply('42', 'bot-account', 'sent');
    second.reply('42', 'bot-account', 'failed', 'no');
    second.deliveryRefused('42', 'too-large');
    await Promise.all([first.flush(), second.flush()]);

    const doc = await docOf('42');
    expect(doc?.replies).toEqual({ 'bot-account': { sent: 3, failed: 1 } });
    expect(doc?.refused).toEqual({ 'too-large': 2 });
  });

  test('when a refusal or a dead letter has no channel, then it is stored on the unattributed document', async () => {
    const health = healthOn(platform.store);

    health.deliveryRefused(null, 'bad-signature');
    health.deliveryRefused(null, 'bad-signature');
    health.deadLettered(null, 'no broadcaster');
    await health.flush();

    const doc = await docOf(unattributedId);
    expect(doc?.refused).toEqual({ 'bad-signature': 2 });
    expect(doc?.deadLetters).toEqual({ count: 1, lastAt: clock.now(), lastReason: 'no broadcaster' });
  });

  test('when a subscription check re-created events, then the check and when they were re-created are stored, and a later clean check keeps the re-creation time', async () => {
    const health = healthOn(platform.store);
    const firstCheck = clock.now();
    health.subscriptionsChecked('42', {
      present: ['kicks.gifted'],
      recreated: ['chat.message.sent'],
      missing: [{ event: 'channel.reward.redemption.updated', reason: 'not allowed' }],
      duplicatesRemoved: 2,
      checkedAt: firstCheck,
    });
    await health.flush();
    clock.advance(600_000);
    health.subscriptionsChecked('42', {
      present: ['chat.message.sent', 'kicks.gifted'],
      recreated: [],
      missing: [],
      duplicatesRemoved: 1,
      checkedAt: clock.now(),
    });
    await health.flush();

    expect((await docOf('42'))?.subscriptions).toEqual({
      checkedAt: clock.now(),
      present: ['chat.message.sent', 'kicks.gifted'],
      missing: [],
      duplicatesRemoved: 3,
      lastRecreatedAt: firstCheck,
      lastRecreatedEvents: ['chat.message.sent'],
    });
  });

  test('when the store refuses a flush, then the reports are kept and stored by the next flush together with the new ones', async () => {
    let failuresLeft = 1;
    const flaky: Store = {
      ...platform.store,
      collection: <T extends { _id: string }>(name: string) => {
        const collection = platform.store.collection<T>(name);
        return {
          ...collection,
          insertOne: collection.insertOne.bind(collection),
          findOne: collection.findOne.bind(collection),
          updateEach: (...args: Parameters<typeof collection.updateEach>) => {
            if (failuresLeft > 0) {
              failuresLeft -= 1;
              return Promise.reject(new Error('store down'));
            }
            return collection.updateEach(...args);
          },
        };
      },
    };
    const health = healthOn(flaky);

    health.reply('42', 'streamer-user', 'sent');
    await health.flush();
    expect(await docOf('42')).toBeNull();
    health.reply('42', 'streamer-user', 'sent');
    await health.flush();

    expect((await docOf('42'))?.replies).toEqual({ 'streamer-user': { sent: 2 } });
  });

  test('when 1,200 channels had traffic, then one flush stores them all in twelve bulk writes of 100 and no single update', async () => {
    const calls = { updateEach: [] as number[], updateOne: 0 };
    const counting: Store = {
      ...platform.store,
      collection: <T extends { _id: string }>(name: string) => {
        const collection = platform.store.collection<T>(name);
        return {
          ...collection,
          updateOne: (...args: Parameters<typeof collection.updateOne>) => {
            calls.updateOne += 1;
            return collection.updateOne(...args);
          },
          updateEach: (...args: Parameters<typeof collection.updateEach>) => {
            calls.updateEach.push(args[0].length);
            return collection.updateEach(...args);
          },
        };
      },
    };
    const health = healthOn(counting);
    const channels = Array.from({ length: 1200 }, (_, index) => `c${index}`);
    for (const channel of channels) health.reply(channel, 'bot-account', 'sent');
    health.reply('c0', 'bot-account', 'sent');

    await health.flush();

    expect(calls).toEqual({ updateEach: Array.from({ length: 12 }, () => 100), updateOne: 0 });
    expect(await deliveryHealthDocs(platform.store).count()).toBe(1200);
    expect((await docOf('c0'))?.replies).toEqual({ 'bot-account': { sent: 2 } });
    expect((await docOf('c1199'))?.replies).toEqual({ 'bot-account': { sent: 1 } });
  });

  test('when the write of one channel fails alone in a flush, then only that channel is kept, and the next flush stores it once', async () => {
    let failChannel: string | undefined = '7';
    const partly: Store = {
      ...platform.store,
      collection: <T extends { _id: string }>(name: string) => {
        const collection = platform.store.collection<T>(name);
        return {
          ...collection,
          updateEach: async (...args: Parameters<typeof collection.updateEach>) => {
            const writes = args[0];
            const failing = writes.findIndex((write) => write.filter._id === failChannel);
            failChannel = undefined;
            const outcomes = await collection.updateEach(writes.filter((_, index) => index !== failing));
            if (failing >= 0) outcomes.splice(failing, 0, new Error('write refused'));
            return outcomes;
          },
        };
      },
    };
    const health = healthOn(partly);
    health.reply('7', 'bot-account', 'sent');
    health.reply('8', 'bot-account', 'sent');

    await health.flush();
    expect(await docOf('7')).toBeNull();
    expect((await docOf('8'))?.replies).toEqual({ 'bot-account': { sent: 1 } });
    await health.flush();

    expect((await docOf('7'))?.replies).toEqual({ 'bot-account': { sent: 1 } });
    expect((await docOf('8'))?.replies).toEqual({ 'bot-account': { sent: 1 } });
  });

  test('when stopped, then what is left is flushed', async () => {
    const health = healthOn(platform.store);
    health.kickError('7', 'Kick answered in an unexpected way');

    await health.stop();

    expect((await docOf('7'))?.lastKickError).toEqual({
      at: clock.now(),
      message: 'Kick answered in an unexpected way',
    });
  });
});
