import { fixKafkajsIdleLoop } from './kafkajs-idle-loop-fix';

// kafkajs's own RequestQueue, as its connections make them
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => {
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  pending: unknown[];
  checkPendingRequests(): void;
  destroy(): void;
};

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** `maxInFlightRequests`: 0 keeps every request waiting. */
function aQueue(maxInFlightRequests: number | null = null) {
  return new RequestQueue({
    maxInFlightRequests,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: 'localhost:9092',
    logger,
  });
}

describe('the kafkajs idle loop fix', () => {
  beforeAll(() => {
    expect(fixKafkajsIdleLoop()).toBe(true);
  });

  test('when a connection has answered its last request and nothing waits, then no check is scheduled', () => {
    const queue = aQueue();

    queue.checkPendingRequests(); // what kafkajs runs after every answer

    expect(queue.throttleCheckTimeoutId).toBeNull();
  });

  test('when a request waits, then a check is scheduled as before', () => {
    const queue = aQueue(0);
    queue.pending.push({});

    queue.checkPendingRequests();

    expect(queue.throttleCheckTimeoutId).not.toBeNull();
    queue.destroy();
  });

  test('when the broker throttles the connection, then a check is scheduled for the throttle end as before', () => {
    const queue = aQueue();
    queue.throttledUntil = Date.now() + 60_000;

    queue.checkPendingRequests();

    expect(queue.throttleCheckTimeoutId).not.toBeNull();
    queue.destroy();
  });

  test('when applied twice, then it stays applied', () => {
    expect(fixKafkajsIdleLoop()).toBe(true);
  });
});
