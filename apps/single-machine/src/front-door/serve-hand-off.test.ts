import { MessageChannel } from 'node:worker_threads';
import { captureLog, eventually } from '@kickstand/platform/testing';
import type { FrontMessage, HandedOverDelivery, OwnerMessage } from './messages';
import { finishedReportIntervalMs, serveWebhookHandOff } from './serve-hand-off';
import { aHold, aRecordingDoor } from './testing/door-fakes';

const aDelivery = (messageId: string): HandedOverDelivery => ({
  headers: {
    messageId,
    subscriptionId: 'sub-1',
    signature: 'c2ln',
    timestamp: '2026-03-01T12:00:00.000Z',
    eventType: 'chat.message.sent',
    eventVersion: '1',
  },
  rawBody: Buffer.from(`{"message_id":"${messageId}"}`),
  sentAtMs: Date.parse('2026-03-01T12:00:00.000Z'),
  receivedAtMs: Date.parse('2026-03-01T12:00:00.000Z'),
});

/** What the front door posts for the deliveries of one of its event-loop turns. */
const aTurnOf = (...messageIds: string[]): FrontMessage => ({
  kind: 'deliveries',
  deliveries: messageIds.map(aDelivery),
});

const aTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Event-loop turns (setImmediate, not faked) until the condition holds: messages between ports arrive in them. */
async function turnsUntil(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10_000 && !condition(); turn++) await aTurn();
  expect(condition()).toBe(true);
}

describe("the owner thread's side of the hand-off", () => {
  test('when one message carries the deliveries of a turn, then the intake gets each once, in that order, and the front door hears they are finished', async () => {
    const channel = new MessageChannel();
    const recording = aRecordingDoor('unused');
    const handOff = serveWebhookHandOff(channel.port2, recording.door, captureLog().log);
    let reported = 0;
    channel.port1.on('message', (message: OwnerMessage) => {
      if (message.kind === 'finished') reported += message.count;
    });
    channel.port1.postMessage(aTurnOf('k-1', 'k-2', 'k-3'));

    await eventually(() => expect(reported).toBe(3));
    channel.port1.close();
    await handOff.finish(60_000);
    handOff.close();

    expect(recording.accepted.map(({ headers, rawBody }) => [headers.messageId, rawBody.toString()])).toEqual([
      ['k-1', '{"message_id":"k-1"}'],
      ['k-2', '{"message_id":"k-2"}'],
      ['k-3', '{"message_id":"k-3"}'],
    ]);
    expect(recording.finished).toEqual(['k-1', 'k-2', 'k-3']);
  });
});

describe("the owner thread's side of the hand-off, at a stop", () => {
  test('when the front door has stopped with deliveries still in the owner, then finish resolves only after they are finished', async () => {
    const channel = new MessageChannel();
    const recording = aRecordingDoor('unused');
    const hold = aHold();
    const events: string[] = [];
    recording.state.finish = async (delivery) => {
      await hold.promise;
      events.push(`finished ${delivery.headers.messageId}`);
    };
    const handOff = serveWebhookHandOff(channel.port2, recording.door, captureLog().log);
    channel.port1.postMessage(aTurnOf('k-1'));
    channel.port1.postMessage(aTurnOf('k-2'));
    channel.port1.close();

    const finishing = handOff.finish(60_000).then(() => events.push('finish resolved'));
    await eventually(() => expect(recording.accepted).toHaveLength(2));
    await aTurn();
    events.push('released');
    hold.release();
    await finishing;
    handOff.close();

    expect(events).toEqual(['released', 'finished k-1', 'finished k-2', 'finish resolved']);
  });

  test('when a delivery posted just before the front door closed its port has not been received yet, then finish waits for it too', async () => {
    const channel = new MessageChannel();
    const recording = aRecordingDoor('unused');
    const handOff = serveWebhookHandOff(channel.port2, recording.door, captureLog().log);
    channel.port1.postMessage(aTurnOf('k-3'));
    channel.port1.close();

    await handOff.finish(60_000);
    handOff.close();

    expect(recording.finished).toEqual(['k-3']);
  });

  test('when a delivery does not finish within the bound, then finish gives up and says how many were left', async () => {
    const channel = new MessageChannel();
    const recording = aRecordingDoor('unused');
    recording.state.finish = () => new Promise(() => undefined);
    const captured = captureLog('info');
    const handOff = serveWebhookHandOff(channel.port2, recording.door, captured.log);
    channel.port1.postMessage(aTurnOf('k-4'));
    channel.port1.close();
    await eventually(() => expect(recording.accepted).toHaveLength(1));

    await handOff.finish(1);
    handOff.close();

    expect(captured.records().map(({ msg, unfinished, timeoutMs }) => ({ msg, unfinished, timeoutMs }))).toEqual([
      {
        msg: 'stopping without waiting longer for webhook deliveries already answered 200: those left may be lost',
        unfinished: 1,
        timeoutMs: 1,
      },
    ]);
  });
});

describe("the owner thread's reports of finished deliveries", () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  /** The owner's side on one end of a channel; the reports and the close as the front door's end sees them. */
  function anOwnerSide() {
    const channel = new MessageChannel();
    const recording = aRecordingDoor('unused');
    const handOff = serveWebhookHandOff(channel.port2, recording.door, captureLog().log);
    const heard: string[] = [];
    channel.port1.on('message', (message: OwnerMessage) => {
      if (message.kind === 'finished') heard.push(`finished ${message.count}`);
    });
    channel.port1.once('close', () => heard.push('closed'));
    return { channel, recording, handOff, heard };
  }

  test('when deliveries finish in separate turns, then the front door hears of them in one report, once the report interval has passed since the first', async () => {
    const { channel, recording, handOff, heard } = anOwnerSide();
    for (const [index, messageId] of ['k-1', 'k-2', 'k-3'].entries()) {
      channel.port1.postMessage(aTurnOf(messageId));
      await turnsUntil(() => recording.finished.length === index + 1);
    }
    for (let turn = 0; turn < 20; turn++) await aTurn();
    const beforeInterval = [...heard];
    jest.advanceTimersByTime(finishedReportIntervalMs - 1);
    for (let turn = 0; turn < 20; turn++) await aTurn();
    const justBeforeInterval = [...heard];
    jest.advanceTimersByTime(1);
    await turnsUntil(() => heard.length === 1);

    channel.port1.postMessage(aTurnOf('k-4'));
    await turnsUntil(() => recording.finished.length === 4);
    jest.advanceTimersByTime(finishedReportIntervalMs);
    await turnsUntil(() => heard.length === 2);
    channel.port1.close();
    await handOff.finish(60_000);
    handOff.close();

    expect(beforeInterval).toEqual([]);
    expect(justBeforeInterval).toEqual([]);
    expect(heard).toEqual(['finished 3', 'finished 1', 'closed']);
    expect(recording.finished).toEqual(['k-1', 'k-2', 'k-3', 'k-4']);
  });

  test('when the owner closes its end with finished deliveries not reported yet, then it reports them before the port closes', async () => {
    const { channel, recording, handOff, heard } = anOwnerSide();
    channel.port1.postMessage(aTurnOf('k-5', 'k-6'));
    await turnsUntil(() => recording.finished.length === 2);

    handOff.close();
    await turnsUntil(() => heard.includes('closed'));
    jest.advanceTimersByTime(finishedReportIntervalMs);
    for (let turn = 0; turn < 20; turn++) await aTurn();

    expect(heard).toEqual(['finished 2', 'closed']);
  });

  test('when no delivery has finished, then no report is sent, however long it waits', async () => {
    const { channel, handOff, heard } = anOwnerSide();
    jest.advanceTimersByTime(10 * finishedReportIntervalMs);
    for (let turn = 0; turn < 20; turn++) await aTurn();
    handOff.close();
    await turnsUntil(() => heard.includes('closed'));
    channel.port1.close();

    expect(heard).toEqual(['closed']);
  });
});
