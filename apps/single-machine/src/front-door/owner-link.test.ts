import { MessageChannel } from 'node:worker_threads';
import type { VerifiedDelivery } from '@kickstand/kick-link/front-door';
import { captureLog, eventually } from '@kickstand/platform/testing';
import type { FrontMessage } from './messages';
import { createOwnerLink } from './owner-link';
import { serveWebhookHandOff } from './serve-hand-off';
import { aRecordingDoor } from './testing/door-fakes';

const aDelivery = (messageId: string): VerifiedDelivery => ({
  headers: {
    messageId,
    subscriptionId: 'sub-1',
    signature: 'c2ln',
    timestamp: '2026-03-01T12:00:00.000Z',
    eventType: 'chat.message.sent',
    eventVersion: '1',
  },
  rawBody: Buffer.from(`{"message_id":"${messageId}"}`),
  sentAt: new Date('2026-03-01T12:00:00.000Z'),
  receivedAt: new Date('2026-03-01T12:00:01.000Z'),
});

const aTurn = () => new Promise((resolve) => setImmediate(resolve));

/** The front door's link on one end of a channel; what reaches the owner's end, message by message. */
function aLink(maxUnfinished = 100) {
  const channel = new MessageChannel();
  const link = createOwnerLink(channel.port1, { handOffTimeoutMs: 10_000, maxUnfinished, log: captureLog().log });
  const received: FrontMessage[] = [];
  channel.port2.on('message', (message: FrontMessage) => received.push(message));
  /** Each message as its kind and, for deliveries, their message ids and bodies. */
  const summary = () =>
    received.map((message) =>
      message.kind === 'deliveries'
        ? message.deliveries.map(({ headers, rawBody }) => `${headers.messageId} ${Buffer.from(rawBody).toString()}`)
        : message.kind,
    );
  const deliveriesReceived = () =>
    received.reduce((sum, message) => sum + (message.kind === 'deliveries' ? message.deliveries.length : 0), 0);
  return { channel, link, received, summary, deliveriesReceived };
}

describe("the front door's link to the owner thread", () => {
  test('when the owner thread goes away with deliveries answered 200 and not yet finished, then the front door logs how many may be lost', async () => {
    const channel = new MessageChannel();
    const captured = captureLog();
    const link = createOwnerLink(channel.port1, { handOffTimeoutMs: 10_000, maxUnfinished: 100, log: captured.log });
    await link.intake.accept(aDelivery('k-1'));
    await aTurn(); // k-1 is posted
    await link.intake.accept(aDelivery('k-2')); // k-2 waits for the end of this turn

    channel.port2.close();
    await eventually(() =>
      expect(captured.records().filter((record) => record.level === 50)).toEqual([
        expect.objectContaining({
          deliveries: 2,
          msg: 'the owner thread is gone: webhook deliveries already answered 200 may not have been published',
        }),
      ]),
    );
    expect(await link.intake.accept(aDelivery('k-3'))).toBe('unavailable');
    link.close();
  });

  test('when the front door closes its link itself, then nothing is reported lost', async () => {
    const channel = new MessageChannel();
    const captured = captureLog();
    const link = createOwnerLink(channel.port1, { handOffTimeoutMs: 10_000, maxUnfinished: 100, log: captured.log });
    await link.intake.accept(aDelivery('k-1'));
    link.close();
    channel.port2.close();
    await aTurn();

    expect(captured.records().filter((record) => record.level === 50)).toEqual([]);
  });

  test('when deliveries are handed over in one event-loop turn, then the owner gets them as one message, in order, and those of the next turn as the next', async () => {
    const { channel, link, received, summary, deliveriesReceived } = aLink();
    const firstTurn = await Promise.all(['k-1', 'k-2', 'k-3'].map((id) => link.intake.accept(aDelivery(id))));
    await aTurn();
    const secondTurn = await link.intake.accept(aDelivery('k-4'));
    await eventually(() => expect(deliveriesReceived()).toBe(4));
    link.close();
    channel.port2.close();

    expect([...firstTurn, secondTurn]).toEqual(['kept', 'kept', 'kept', 'kept']);
    expect(summary()).toEqual([
      ['k-1 {"message_id":"k-1"}', 'k-2 {"message_id":"k-2"}', 'k-3 {"message_id":"k-3"}'],
      ['k-4 {"message_id":"k-4"}'],
    ]);
    const [first] = received;
    expect(first?.kind === 'deliveries' ? first.deliveries[0] : first).toEqual({
      headers: aDelivery('k-1').headers,
      rawBody: new Uint8Array(Buffer.from('{"message_id":"k-1"}')),
      sentAtMs: Date.parse('2026-03-01T12:00:00.000Z'),
      receivedAtMs: Date.parse('2026-03-01T12:00:01.000Z'),
    });
  });

  test('when a refusal or a key request follows deliveries in the same turn, then the owner gets the deliveries first', async () => {
    const { channel, link, summary } = aLink();
    const answer = await link.intake.accept(aDelivery('k-5'));
    link.intake.refused('bad-signature');
    const key = link.publicKey().catch((error: unknown) => error);
    await eventually(() => expect(summary()).toHaveLength(3));
    link.close();
    channel.port2.close();
    await key;

    expect(answer).toBe('kept');
    expect(summary()).toEqual([['k-5 {"message_id":"k-5"}'], 'refused', 'public-key']);
  });

  test('when more deliveries than the bound come in one turn, then those over it are answered unavailable and not handed over', async () => {
    const { channel, link, summary, deliveriesReceived } = aLink(2);
    const answers = await Promise.all(['k-6', 'k-7', 'k-8'].map((id) => link.intake.accept(aDelivery(id))));
    await eventually(() => expect(deliveriesReceived()).toBe(2));
    await aTurn();
    link.close();
    channel.port2.close();

    expect(answers).toEqual(['kept', 'kept', 'unavailable']);
    expect(summary()).toEqual([['k-6 {"message_id":"k-6"}', 'k-7 {"message_id":"k-7"}']]);
  });

  test('when the front door closes in the turn a delivery was answered 200, then the owner gets it and a stop waits until it is finished', async () => {
    const channel = new MessageChannel();
    const link = createOwnerLink(channel.port1, {
      handOffTimeoutMs: 10_000,
      maxUnfinished: 100,
      log: captureLog().log,
    });
    const recording = aRecordingDoor('unused');
    const handOff = serveWebhookHandOff(channel.port2, recording.door, captureLog().log);
    const answer = await link.intake.accept(aDelivery('k-9'));
    link.close();

    await handOff.finish(60_000);
    handOff.close();

    expect(answer).toBe('kept');
    expect(recording.finished).toEqual(['k-9']);
  });
});
