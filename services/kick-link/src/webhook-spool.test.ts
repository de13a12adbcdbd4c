import { randomBytes } from 'node:crypto';
import { kickstandTopics, nodeSpoolDisk, type KickstandBus, type SpoolDisk } from '@kickstand/platform/bus';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import { createSilentLogger } from '@kickstand/platform/log';
import { createEmbeddedStore, type Store } from '@kickstand/platform/store';
import {
  createFakeClock,
  createTempDirs,
  createTestPlatform,
  eventually,
  recordPublished,
  type RecordedBus,
  type TestPlatform,
} from '@kickstand/platform/testing';
import type { KickstandTopics } from '@kickstand/platform/bus';
import type { LinkDoc } from './repository';
import { createKickLinkService } from './service';
import { generateKickKeyPair, kickTimestamp, postSignedDelivery } from './testing/signed-delivery';
import { aStoredLink } from './testing/links';

/**
 * The webhook door on a bus that can be down (Kafka in distributed mode): a delivery is answered
 * 200 once it is durable, in the bus or in the spool, and the spool reaches the bus in order.
 * The bus here is the in-process one behind a switch that makes its publish fail on demand.
 */

const kickKeys = generateKickKeyPair();
const clock = createFakeClock(new Date('2026-03-02T18:04:11Z'));
const broadcasterId = 4377088;
const ownerUserId = 'u-streamer';
const log = createSilentLogger();
const dirs = createTempDirs('webhook-spool');

let platform: TestPlatform;
let recorded: RecordedBus<KickstandTopics>;
let storeDir: string;
let spoolDir: string;
let store: Store;
let door: RunningService | undefined;
let baseUrl: string;
const busState = { isDown: false };
const diskState = { isFailing: false };

/** The recorded bus, whose publish fails while `busState.isDown`. */
const switchableBus = (): KickstandBus => ({
  publish: (topic, key, message) =>
    busState.isDown ? Promise.reject(new Error('Kafka is down')) : recorded.bus.publish(topic, key, message),
  subscribe: (topic, group, handler) => recorded.bus.subscribe(topic, group, handler),
  subscribeDeadLetters: (group, handler) => recorded.bus.subscribeDeadLetters(group, handler),
  joining: () => recorded.bus.joining(),
  ping: () => (busState.isDown ? Promise.reject(new Error('Kafka is down')) : recorded.bus.ping()),
  stop: () => recorded.bus.stop(),
});

/** The real disk, whose fsync fails while `diskState.isFailing`. */
const switchableDisk: SpoolDisk = {
  ...nodeSpoolDisk,
  async openAppend(file) {
    const real = await nodeSpoolDisk.openAppend(file);
    return {
      append: (bytes) => real.append(bytes),
      sync: () => (diskState.isFailing ? Promise.reject(new Error('EIO: the disk failed')) : real.sync()),
      close: () => real.close(),
    };
  },
};

async function startDoor(): Promise<void> {
  door = await startHttpService(
    createKickLinkService(
      { ...platform, store, bus: switchableBus() },
      {
        kick: {
          clientId: 'c',
          clientSecret: 's',
          redirectUri: 'http://localhost:3000/api/kick/oauth/callback',
          oauthUrl: 'http://127.0.0.1:1',
          apiUrl: 'http://127.0.0.1:1/public/v1',
        },
        tokenEncryptionKey: randomBytes(32),
        http: { timeoutMs: 500, maxAttempts: 1 },
        publicKeyFallbackPem: kickKeys.publicKey,
        deliveryHealth: { reconcileTickMs: 0, flushIntervalMs: 0 },
        webhookSpool: {
          dir: spoolDir,
          maxBytes: 1024 * 1024,
          publishTimeoutMs: 200,
          retryDelayMs: 10,
          disk: switchableDisk,
        },
      },
    ),
    { port: 0, host: '127.0.0.1' },
  );
  baseUrl = `http://127.0.0.1:${door.port}`;
}

/** Stops kick-link and closes its store, as a process exit would; the store's files stay. */
async function stopDoor(): Promise<void> {
  await door?.stop();
  door = undefined;
  await store.close();
}

async function restartDoor(): Promise<void> {
  await stopDoor();
  store = await createEmbeddedStore({ dir: storeDir, clock, log });
  await startDoor();
}

beforeEach(async () => {
  busState.isDown = false;
  diskState.isFailing = false;
  platform = await createTestPlatform('kick-link', { clock });
  recorded = recordPublished(platform.bus, kickstandTopics);
  storeDir = await dirs.make('store');
  spoolDir = await dirs.make('spool');
  store = await createEmbeddedStore({ dir: storeDir, clock, log });
  const link: LinkDoc = aStoredLink(ownerUserId, { kickUserId: String(broadcasterId), at: clock.now() });
  await store.collection<LinkDoc>('kick-links').insertOne(link);
  await startDoor();
});

afterEach(async () => {
  await stopDoor();
  await platform.close();
  await dirs.removeAll();
});

let sequence = 0;
const aMessageId = () => `01JK7Z8Q4W2M6B3T5N9S${String((sequence += 1)).padStart(6, '0')}`;

/** A signed chat.message.sent delivery saying `content`. */
async function deliverChat(
  content: string,
  messageId = aMessageId(),
): Promise<{ status: number; retryAfter: string | null; messageId: string }> {
  const timestamp = kickTimestamp(clock.now());
  const raw = JSON.stringify({
    message_id: `chat-${messageId}`,
    broadcaster: {
      is_anonymous: false,
      user_id: broadcasterId,
      username: 'some_streamer',
      is_verified: true,
      profile_picture: '',
      channel_slug: 'some_streamer',
      identity: null,
    },
    sender: {
      is_anonymous: false,
      user_id: 555002,
      username: 'viewer_b',
      is_verified: false,
      profile_picture: '',
      channel_slug: 'viewer_b',
      identity: null,
    },
    content,
    emotes: [],
    created_at: timestamp,
  });
  const response = await postSignedDelivery(`${baseUrl}/api/kick/webhook`, kickKeys.privateKey, {
    type: 'chat.message.sent',
    raw,
    messageId,
    timestamp,
  });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), messageId };
}

const publishedContents = () => recorded.published('chat.received').map((message) => message.content);

test('when Kafka is down, then deliveries are answered 200, and once it is back they are published once each, in order', async () => {
  // Arrange
  busState.isDown = true;
  // Act
  const answers = [await deliverChat('one'), await deliverChat('two'), await deliverChat('three')];
  const publishedWhileDown = publishedContents();
  busState.isDown = false;
  // Assert
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
  expect(publishedWhileDown).toEqual([]);
  await eventually(() => expect(publishedContents()).toEqual(['one', 'two', 'three']));
  // a delivery after the spool is drained goes straight to the bus, behind them
  expect((await deliverChat('four')).status).toBe(200);
  await eventually(() => expect(publishedContents()).toEqual(['one', 'two', 'three', 'four']));
  const ids = recorded.published('chat.received').map((message) => message.kickMessageId);
  expect(ids.slice(0, 3)).toEqual(answers.map((answer) => answer.messageId));
});

test('when Kafka and the spool disk are both failing, then 503 with Retry-After, and the message id is free for a retry', async () => {
  // Arrange
  busState.isDown = true;
  diskState.isFailing = true;
  // Act
  const refused = await deliverChat('lost?');
  busState.isDown = false;
  diskState.isFailing = false;
  const retried = await deliverChat('lost?', refused.messageId);
  // Assert
  expect(refused.status).toBe(503);
  expect(refused.retryAfter).toBe('5');
  expect(retried.status).toBe(200);
  await eventually(() => expect(publishedContents()).toEqual(['lost?']));
});

test('when kick-link restarts, then a delivery it took before is still a duplicate (the claim is in the store)', async () => {
  // Arrange
  const first = await deliverChat('hello');
  await eventually(() => expect(publishedContents()).toEqual(['hello']));
  // Act
  await restartDoor();
  const again = await deliverChat('hello', first.messageId);
  // Assert
  expect(again.status).toBe(200);
  expect(publishedContents()).toEqual(['hello']);
});

test('when kick-link stops with deliveries spooled, then the next start forwards them before new ones', async () => {
  // Arrange
  busState.isDown = true;
  await deliverChat('one');
  await deliverChat('two');
  // Act
  await stopDoor();
  busState.isDown = false;
  store = await createEmbeddedStore({ dir: storeDir, clock, log });
  await startDoor();
  await deliverChat('three');
  // Assert
  await eventually(() => expect(publishedContents()).toEqual(['one', 'two', 'three']));
});

test('when Kafka is down, then kick-link stays ready while the spool can keep deliveries', async () => {
  // Arrange
  busState.isDown = true;
  // Act
  const whileDown = await fetch(`${baseUrl}/readyz`);
  diskState.isFailing = true;
  await deliverChat('refused');
  const diskFailing = await fetch(`${baseUrl}/readyz`);
  // Assert
  expect(whileDown.status).toBe(200);
  expect(diskFailing.status).toBe(503);
});
