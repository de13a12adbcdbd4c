import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { createSilentLogger, type Logger } from '../log/logger';
import type { Bus, TopicName, TopicRegistry } from './bus';
import { SpoolFullError, type Spool, type SpooledRecord } from './spool';

/**
 * Durable publishing: `publish` resolves once the message is in the bus, or, when the bus cannot
 * take it within `publishTimeoutMs`, once it is fsynced in the spool; a forwarder then moves the
 * spool into the bus, in order, as soon as the bus takes messages again. It throws only when
 * neither holds it (the spool is full, or its disk fails): for a webhook door, the one case that
 * deserves a 5xx.
 *
 * Order: while anything is held in the spool, new messages go to the spool too, behind it, so one
 * key's messages reach the bus in the order they were published. (Two publishes in flight at the
 * same moment have no order between them anyway.)
 *
 * At least once: a publish that timed out may still land in the bus later, and a crash may forward
 * a record again (see spool.ts), so the same message can reach the bus twice; consumers dedupe by
 * the message's event id, as they must on any at-least-once bus.
 */

export interface SpooledPublisherOptions<R extends TopicRegistry> {
  bus: Bus<R>;
  topics: R;
  spool: Spool;
  /** How long a publish may take before the message goes to the spool instead; 1500 ms unless told. */
  publishTimeoutMs?: number;
  /** How long the forwarder waits for one message to be taken; 10 s unless told. */
  forwardTimeoutMs?: number;
  /** The forwarder's pause after a failure, before trying the bus again; 1 s unless told. */
  retryDelayMs?: number;
  /** Records read from the spool at a time; 100 unless told. */
  batchRecords?: number;
  log?: Logger;
}

/** Where a message went. */
export type PublishedTo = 'bus' | 'spool';

export interface SpooledPublisher<R extends TopicRegistry> {
  publish<T extends TopicName<R>>(topic: T, key: string, message: MessageInitShape<R[T]>): Promise<PublishedTo>;
  /**
   * The wrapped bus with `publish` made durable, for code written against the bus port. Its `ping`
   * passes while publishing can be kept: the bus answers, or the spool has room and its last write
   * worked (a webhook door stays ready through a bus outage).
   */
  readonly bus: Bus<R>;
  /**
   * Opens the spool and starts forwarding; what an earlier run left is forwarded first. A publish
   * before start() starts it.
   */
  start(): Promise<void>;
  /** Stops forwarding and closes the spool; what it holds stays for the next start. */
  stop(): Promise<void>;
  /** Bytes waiting in the spool (for metrics and readiness). */
  heldBytes(): number;
}

export function createSpooledPublisher<R extends TopicRegistry>(
  options: SpooledPublisherOptions<R>,
): SpooledPublisher<R> {
  const { bus, topics, spool } = options;
  const publishTimeoutMs = options.publishTimeoutMs ?? 1500;
  const log = options.log ?? createSilentLogger();

  let isStopped = false;
  /** The last append's failure (not a full spool), until an append works again. */
  let spoolFailure: unknown;
  let starting: Promise<void> | undefined;

  function schemaOf(topic: string) {
    const schema = topics[topic];
    if (!schema) throw new Error(`Unknown topic "${topic}": it is not in the bus's topic registry`);
    return schema;
  }

  const forwarder = createForwarder<R>({
    bus,
    spool,
    schemaOf,
    forwardTimeoutMs: options.forwardTimeoutMs ?? 10_000,
    retryDelayMs: options.retryDelayMs ?? 1000,
    batchRecords: options.batchRecords ?? 100,
    log,
  });

  async function publish<T extends TopicName<R>>(
    topic: T,
    key: string,
    message: MessageInitShape<R[T]>,
  ): Promise<PublishedTo> {
    const schema = schemaOf(topic);
    if (!forwarder.isRunning()) {
      if (isStopped) throw new Error('The spooled publisher is stopped');
      await start(); // a publish that comes first waits for the spool to be loaded
    }
    if (spool.isEmpty()) {
      try {
        await withTimeout(bus.publish(topic, key, message), publishTimeoutMs);
        return 'bus';
      } catch (error) {
        log.warn({ err: error, topic }, 'spooled publisher: the bus did not take a message in time; spooling it');
      }
    }
    try {
      await spool.append({ topic, key, value: toBinary(schema, create(schema, message)) });
      spoolFailure = undefined;
    } catch (error) {
      if (!(error instanceof SpoolFullError)) spoolFailure = error;
      throw error;
    }
    forwarder.wake();
    return 'spool';
  }

  function start(): Promise<void> {
    starting ??= (async () => {
      await spool.open();
      forwarder.run();
    })();
    return starting;
  }

  return {
    publish,
    bus: durableBus(bus, publish, (error) => {
      if (!forwarder.isRunning() || spool.freeBytes() === 0) throw error;
      if (spoolFailure !== undefined) throw spoolFailure;
    }),
    start,
    async stop() {
      isStopped = true;
      if (!starting) return;
      await starting.catch(() => undefined);
      if (!forwarder.isRunning()) return;
      await forwarder.stop();
      await spool.close();
    },
    heldBytes: () => spool.heldBytes(),
  };
}

/**
 * The bus port over the durable `publish`; everything else goes to the wrapped bus. When the bus
 * does not answer a ping, `onPingFailure` decides whether publishing can still be kept (it throws
 * when not).
 */
function durableBus<R extends TopicRegistry>(
  bus: Bus<R>,
  publish: SpooledPublisher<R>['publish'],
  onPingFailure: (error: unknown) => void,
): Bus<R> {
  return {
    publish: async (topic, key, message) => {
      await publish(topic, key, message);
    },
    subscribe: (topic, group, handler) => bus.subscribe(topic, group, handler),
    subscribeDeadLetters: (group, handler) => bus.subscribeDeadLetters(group, handler),
    joining: () => bus.joining(),
    async ping() {
      try {
        await bus.ping();
      } catch (error) {
        onPingFailure(error);
      }
    },
    stop: () => bus.stop(),
  };
}

interface ForwarderDeps<R extends TopicRegistry> {
  bus: Bus<R>;
  spool: Spool;
  schemaOf(topic: string): DescMessage;
  forwardTimeoutMs: number;
  retryDelayMs: number;
  batchRecords: number;
  log: Logger;
}

interface ForwarderState {
  isRunning: boolean;
  /** Forwarding tries that failed in a row. */
  failedTries: number;
  /** Ends the forwarder's wait for new records (an append) or for a retry (only stop). */
  wakeOnAppend: (() => void) | undefined;
  wakeOnStop: (() => void) | undefined;
}

/** Moves what the spool holds into the bus, in order, whenever the bus takes messages. */
interface Forwarder {
  isRunning(): boolean;
  /** Starts the loop (the spool is open). */
  run(): void;
  /** Something was appended: look at the spool again. */
  wake(): void;
  /** Ends the loop after its current step. */
  stop(): Promise<void>;
}

function createForwarder<R extends TopicRegistry>(deps: ForwarderDeps<R>): Forwarder {
  const state: ForwarderState = { isRunning: false, failedTries: 0, wakeOnAppend: undefined, wakeOnStop: undefined };
  let forwarding: Promise<void> | undefined;
  return {
    isRunning: () => state.isRunning,
    run() {
      state.isRunning = true;
      forwarding = forwardLoop(deps, state);
    },
    wake() {
      state.wakeOnAppend?.();
    },
    async stop() {
      state.isRunning = false;
      state.wakeOnAppend?.();
      state.wakeOnStop?.();
      await forwarding;
    },
  };
}

function waitForAppend(state: ForwarderState): Promise<void> {
  return new Promise((resolve) => {
    state.wakeOnAppend = () => {
      state.wakeOnAppend = undefined;
      resolve();
    };
  });
}

/** The pause before trying a failing bus again: new records do not cut it short, stop does. */
function waitToRetry(state: ForwarderState, retryDelayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, retryDelayMs);
    function done(): void {
      clearTimeout(timer);
      state.wakeOnStop = undefined;
      resolve();
    }
    state.wakeOnStop = done;
  });
}

async function forwardLoop<R extends TopicRegistry>(deps: ForwarderDeps<R>, state: ForwarderState): Promise<void> {
  const { spool, log } = deps;
  while (state.isRunning) {
    try {
      const appended = waitForAppend(state); // armed before looking, so an append in between is not missed
      if (spool.isEmpty()) {
        await appended;
        continue;
      }
      const before = spool.heldBytes();
      if (!(await forwardBatch(deps, state))) {
        await waitToRetry(state, deps.retryDelayMs);
        continue;
      }
      if (spool.isEmpty()) log.info('spooled publisher: everything spooled is forwarded');
      // nothing was forwardable yet (still being written): that append's completion wakes us
      else if (spool.heldBytes() === before) await appended;
    } catch (error) {
      log.error({ err: error }, 'spooled publisher: forwarding failed');
      await waitToRetry(state, deps.retryDelayMs);
    }
  }
}

/** Sends what the spool holds, in order; returns false when the bus failed (try again later). */
async function forwardBatch<R extends TopicRegistry>(deps: ForwarderDeps<R>, state: ForwarderState): Promise<boolean> {
  const { spool, bus, log } = deps;
  const records = await spool.read(deps.batchRecords);
  if (records.length === 0) return true;
  let done: SpooledRecord | undefined;
  try {
    for (const record of records) {
      const message = decoded(deps, record);
      if (message !== undefined) {
        await withTimeout(bus.publish(record.topic, record.key, message), deps.forwardTimeoutMs);
      }
      done = record;
    }
    state.failedTries = 0;
    return true;
  } catch (error) {
    state.failedTries++;
    // once per outage at warn level, not once per try
    const level = state.failedTries === 1 ? 'warn' : 'debug';
    log[level](
      { err: error, heldBytes: spool.heldBytes(), failedTries: state.failedTries },
      'spooled publisher: the bus does not take messages yet',
    );
    return false;
  } finally {
    if (done) await spool.forwarded(done.end);
  }
}

/** The record's message; undefined (and logged) when it can never be published: it is skipped, not retried forever. */
function decoded<R extends TopicRegistry>(
  deps: ForwarderDeps<R>,
  record: SpooledRecord,
): MessageInitShape<R[TopicName<R>]> | undefined {
  try {
    return fromBinary(deps.schemaOf(record.topic), record.value) as MessageInitShape<R[TopicName<R>]>;
  } catch (error) {
    deps.log.error(
      { err: error, topic: record.topic, key: record.key, bytes: record.value.length },
      'spooled publisher: a spooled message cannot be decoded (another version wrote it?); skipped',
    );
    return undefined;
  }
}

/** The promise's outcome, or a rejection after `ms`; a late outcome is ignored. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The bus did not take the message within ${ms} ms`)), ms);
  });
  promise.catch(() => undefined); // a late failure after the timeout is not an unhandled rejection
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
