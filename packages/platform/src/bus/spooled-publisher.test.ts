import { eventually } from '../testing/eventually';
import { createTempDirs } from '../testing/temp-dirs';
import type { Bus } from './bus';
import { contractRetryPolicy, testTopics, type TestTopics } from './bus.contract';
import { createInProcessBus } from './in-process-bus';
import { createSpool, encodeSpoolRecord, SpoolFullError } from './spool';
import { createSpooledPublisher, type SpooledPublisher } from './spooled-publisher';

type BusState = 'up' | 'failing' | 'hanging';

/** An in-process bus whose publish fails, or never answers, on demand. */
async function fakeBus() {
  const inner = createInProcessBus({ topics: testTopics, retry: contractRetryPolicy });
  const control = { state: 'up' as BusState, attempts: 0 };
  const received: Array<{ key: string; value: number }> = [];
  await inner.subscribe('test.count', 'consumer', async (message, info) => {
    received.push({ key: info.key, value: message.value });
  });
  const bus: Bus<TestTopics> = {
    publish(topic, key, message) {
      control.attempts++;
      if (control.state === 'failing') return Promise.reject(new Error('Kafka is down'));
      if (control.state === 'hanging') return new Promise<void>(() => undefined);
      return inner.publish(topic, key, message);
    },
    subscribe: (topic, group, handler) => inner.subscribe(topic, group, handler),
    subscribeDeadLetters: (group, handler) => inner.subscribeDeadLetters(group, handler),
    joining: () => inner.joining(),
    ping: () => inner.ping(),
    stop: () => inner.stop(),
  };
  return { bus, control, received };
}

describe('spooled publisher', () => {
  const dirs = createTempDirs('spooled');
  let dir: string;
  const started: Array<SpooledPublisher<TestTopics>> = [];

  beforeEach(async () => {
    dir = await dirs.make();
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((publisher) => publisher.stop()));
    await dirs.removeAll();
  });

  async function startPublisher(bus: Bus<TestTopics>, maxBytes = 1024 * 1024) {
    const spool = createSpool({ dir, maxBytes });
    const publisher = createSpooledPublisher({
      bus,
      topics: testTopics,
      spool,
      publishTimeoutMs: 50,
      forwardTimeoutMs: 50,
      retryDelayMs: 10,
    });
    await publisher.start();
    started.push(publisher);
    return { publisher, spool };
  }

  test('when the bus takes the message, then it goes straight to the bus and nothing is spooled', async () => {
    // Arrange
    const { bus, received } = await fakeBus();
    const { publisher, spool } = await startPublisher(bus);
    // Act
    const to = await publisher.publish('test.count', 'channel-1', { value: 1 });
    // Assert
    expect(to).toBe('bus');
    expect(spool.isEmpty()).toBe(true);
    await eventually(() => expect(received).toEqual([{ key: 'channel-1', value: 1 }]));
  });

  test('when the bus fails, then messages are spooled, and forwarded once each, in order, when it is back', async () => {
    // Arrange
    const { bus, control, received } = await fakeBus();
    const { publisher, spool } = await startPublisher(bus);
    control.state = 'failing';
    // Act
    const during = [
      await publisher.publish('test.count', 'channel-1', { value: 1 }),
      await publisher.publish('test.count', 'channel-1', { value: 2 }),
    ];
    control.state = 'up';
    // the spool still holds 1 and 2: the third goes behind them, not past them
    const after = await publisher.publish('test.count', 'channel-1', { value: 3 });
    // Assert
    expect(during).toEqual(['spool', 'spool']);
    expect(after).toBe('spool');
    await eventually(() => expect(received.map((each) => each.value)).toEqual([1, 2, 3]));
    await eventually(() => expect(spool.isEmpty()).toBe(true));
    expect(await publisher.publish('test.count', 'channel-1', { value: 4 })).toBe('bus');
    await eventually(() => expect(received.map((each) => each.value)).toEqual([1, 2, 3, 4]));
  });

  test('when the bus does not answer in time, then the message is spooled and the caller is not kept waiting', async () => {
    // Arrange
    const { bus, control, received } = await fakeBus();
    const { publisher } = await startPublisher(bus);
    control.state = 'hanging';
    // Act
    const to = await publisher.publish('test.count', 'channel-1', { value: 7 });
    control.state = 'up';
    // Assert
    expect(to).toBe('spool');
    await eventually(() => expect(received).toEqual([{ key: 'channel-1', value: 7 }]));
  });

  test('when a run ended with messages spooled, then the next run forwards them before anything published after', async () => {
    // Arrange: the first run spools 1 and 2 and stops while the bus is down
    const first = await fakeBus();
    first.control.state = 'failing';
    const { publisher: before } = await startPublisher(first.bus);
    await before.publish('test.count', 'channel-1', { value: 1 });
    await before.publish('test.count', 'channel-1', { value: 2 });
    await before.stop();
    const second = await fakeBus();
    // Act
    const { publisher: after } = await startPublisher(second.bus);
    await after.publish('test.count', 'channel-1', { value: 3 });
    // Assert
    await eventually(() => expect(second.received.map((each) => each.value)).toEqual([1, 2, 3]));
    expect(first.received).toEqual([]);
  });

  test('when the bus fails and the spool is full, then publish throws SpoolFullError', async () => {
    // Arrange: room for one message
    const { bus, control } = await fakeBus();
    const oneRecord = encodeSpoolRecord({ topic: 'test.count', key: 'channel-1', value: new Uint8Array([8, 1]) });
    const { publisher } = await startPublisher(bus, oneRecord.length);
    control.state = 'failing';
    await publisher.publish('test.count', 'channel-1', { value: 1 });
    // Act
    const refused = publisher.publish('test.count', 'channel-1', { value: 2 });
    // Assert
    await expect(refused).rejects.toBeInstanceOf(SpoolFullError);
  });

  test('when the bus keeps failing, then the forwarder waits between tries instead of hammering it', async () => {
    // Arrange
    const { bus, control } = await fakeBus();
    const spool = createSpool({ dir, maxBytes: 1024 * 1024 });
    const publisher = createSpooledPublisher({
      bus,
      topics: testTopics,
      spool,
      publishTimeoutMs: 50,
      retryDelayMs: 60_000,
    });
    await publisher.start();
    started.push(publisher);
    control.state = 'failing';
    // Act: the first publish tries the bus, then spools; the forwarder tries once and waits a minute
    await publisher.publish('test.count', 'channel-1', { value: 1 });
    await eventually(() => expect(control.attempts).toBe(2));
    for (const value of [2, 3, 4]) await publisher.publish('test.count', 'channel-1', { value });
    await new Promise((resolve) => setTimeout(resolve, 50)); // room for a wrongly woken forwarder to try
    // Assert: the later ones went to the spool without a try of their own, and woke nothing
    expect(control.attempts).toBe(2);
  });

  test('when the bus is down, then ping passes while the spool has room, and fails once it is full', async () => {
    // Arrange: room for one message; the bus does not answer pings either
    const { bus, control } = await fakeBus();
    const downBus: Bus<TestTopics> = { ...bus, ping: () => Promise.reject(new Error('Kafka is down')) };
    const oneRecord = encodeSpoolRecord({ topic: 'test.count', key: 'channel-1', value: new Uint8Array([8, 1]) });
    const { publisher } = await startPublisher(downBus, oneRecord.length);
    control.state = 'failing';
    // Act + Assert
    await expect(publisher.bus.ping()).resolves.toBeUndefined();
    await publisher.publish('test.count', 'channel-1', { value: 1 });
    await expect(publisher.bus.ping()).rejects.toThrow('Kafka is down');
  });

  test('when a spooled record cannot be decoded, then it is skipped and the records behind it are forwarded', async () => {
    // Arrange: a record of a topic no longer known, then a good one, left by an earlier run
    const earlier = createSpool({ dir, maxBytes: 1024 * 1024 });
    await earlier.open();
    await earlier.append({ topic: 'test.gone', key: 'channel-1', value: new Uint8Array([1]) });
    await earlier.append({ topic: 'test.count', key: 'channel-1', value: new Uint8Array([8, 5]) });
    await earlier.close();
    const { bus, received } = await fakeBus();
    // Act
    const { spool } = await startPublisher(bus);
    // Assert
    await eventually(() => expect(received).toEqual([{ key: 'channel-1', value: 5 }]));
    await eventually(() => expect(spool.isEmpty()).toBe(true));
  });
});
