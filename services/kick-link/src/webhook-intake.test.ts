import { randomBytes } from 'node:crypto';
import { kickstandTopics, type KickstandBus, type KickstandTopics } from '@kickstand/platform/bus';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import {
  captureLog,
  createFakeClock,
  createTestPlatform,
  createTestStore,
  histogramTotals,
  recordPublished,
  type RecordedBus,
  type TestPlatform,
  type TestStore,
} from '@kickstand/platform/testing';
import { processMetrics } from '@kickstand/platform/metrics';
import type { DeadLetterView } from './dead-letter-routes';
import type { DeliveryHealthReporter } from './delivery-health';
import { createKickLinkRepository, type LinkDoc } from './repository';
import { createKickLinkService, type KickLinkService } from './service';
import type { VerifiedDelivery } from './webhook-delivery';
import { createWebhookIntake } from './webhook-intake';
import { generateKickKeyPair, kickTimestamp, postSignedDelivery } from './testing/signed-delivery';
import { aStoredLink } from './testing/links';

/**
 * kick-link's intake as single-machine mode's front door reaches it: the front door has answered
 * Kick 200 already (acceptAcknowledged), so a delivery it cannot keep must become a dead letter;
 * kick-link's own door (distributed mode) still answers with the intake's answer.
 */

const kickKeys = generateKickKeyPair();
const clock = createFakeClock(new Date('2026-03-02T18:04:11Z'));
const broadcasterId = 4377088;
const ownerUserId = 'u-streamer';

let sequence = 0;
const aMessageId = () => `01JK7Z8Q4W2M6B3T5N9T${String((sequence += 1)).padStart(6, '0')}`;

function aChatBody(content: string, messageId: string): string {
  return JSON.stringify({
    message_id: `chat-${messageId}`,
    broadcaster: {
      is_anonymous: false,
      user_id: broadcasterId,
      username: 'some_streamer',
      channel_slug: 'some_streamer',
    },
    sender: { is_anonymous: false, user_id: 555002, username: 'viewer_b', channel_slug: 'viewer_b', identity: null },
    content,
    emotes: [],
    created_at: kickTimestamp(clock.now()),
  });
}

/** A delivery as the front door hands it over (its signature was checked there). */
function aVerifiedDelivery(content: string, messageId = aMessageId()): VerifiedDelivery {
  return {
    headers: {
      messageId,
      subscriptionId: 'sub-1',
      signature: 'c2lnbmVk',
      timestamp: kickTimestamp(clock.now()),
      eventType: 'chat.message.sent',
      eventVersion: '1',
    },
    rawBody: Buffer.from(aChatBody(content, messageId)),
    sentAt: clock.now(),
    receivedAt: clock.now(),
  };
}

describe("kick-link's intake behind a door that has answered 200 already", () => {
  let platform: TestPlatform;
  let recorded: RecordedBus<KickstandTopics>;
  let kickLink: KickLinkService;
  let service: RunningService;
  let baseUrl: string;
  const busState = { isDown: false };

  /** The recorded bus, whose publish fails while `busState.isDown` (no spool: the in-process bus's case). */
  const switchableBus = (): KickstandBus => ({
    publish: (topic, key, message) =>
      busState.isDown ? Promise.reject(new Error('the bus is down')) : recorded.bus.publish(topic, key, message),
    subscribe: (topic, group, handler) => recorded.bus.subscribe(topic, group, handler),
    subscribeDeadLetters: (group, handler) => recorded.bus.subscribeDeadLetters(group, handler),
    joining: () => recorded.bus.joining(),
    ping: () => recorded.bus.ping(),
    stop: () => recorded.bus.stop(),
  });

  beforeAll(async () => {
    platform = await createTestPlatform('kick-link', { clock });
    recorded = recordPublished(platform.bus, kickstandTopics);
    const link: LinkDoc = aStoredLink(ownerUserId, { kickUserId: String(broadcasterId), at: clock.now() });
    await platform.store.collection<LinkDoc>('kick-links').insertOne(link);
    kickLink = createKickLinkService(
      { ...platform, bus: switchableBus() },
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
      },
    );
    service = await startHttpService(kickLink, { port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${service.port}`;
  });

  afterAll(async () => {
    await service.stop();
    await platform.close();
  });

  beforeEach(() => {
    busState.isDown = false;
  });

  const adminToken = () => platform.signToken({ userId: 'admin-1', username: 'root', role: 'SUPER_ADMIN' });
  async function admin<T>(method: string, path: string): Promise<{ status: number; json: T }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken()}` },
    });
    return { status: response.status, json: (await response.json()) as T };
  }
  async function deadLetter(messageId: string): Promise<DeadLetterView | undefined> {
    const answer = await admin<{ data: { deadLetters: DeadLetterView[] } }>(
      'GET',
      '/api/admin/kick/dead-letters?limit=100',
    );
    return answer.json.data.deadLetters.find((letter) => letter.id === messageId);
  }
  const publishedFor = (messageId: string) =>
    recorded.published('chat.received').filter((message) => message.kickMessageId === messageId);

  test('when the bus cannot take it, then it is kept as a dead letter saying so, and a replay by the super admin publishes it once', async () => {
    busState.isDown = true;
    const delivery = aVerifiedDelivery('lost?');
    const { messageId } = delivery.headers;

    await kickLink.webhookDoor.intake.acceptAcknowledged(delivery);
    const kept = await deadLetter(messageId);
    busState.isDown = false;
    const replayed = await admin<{ success: boolean; data: { result: string } }>(
      'POST',
      `/api/admin/kick/dead-letters/${messageId}/replay`,
    );

    expect(kept).toMatchObject({
      id: messageId,
      eventType: 'chat.message.sent',
      broadcasterUserId: String(broadcasterId),
      reason: 'not-kept: the bus is down',
      body: delivery.rawBody.toString('utf8'),
      replayedAt: null,
    });
    expect(replayed).toEqual({
      status: 200,
      json: { success: true, message: 'Delivery replayed', data: { result: 'published' } },
    });
    expect(publishedFor(messageId).map((message) => message.content)).toEqual(['lost?']);
    expect(await deadLetter(messageId)).toBeUndefined();
  });

  test('when a delivery is taken in, then its hand-off and its intake are each counted once among the reply stages', async () => {
    const stageCount = async (stage: string) =>
      (
        await histogramTotals(processMetrics().registry, 'kickstand_reply_stage_seconds', {
          service: 'kick-link',
          stage,
        })
      ).count;
    const before = [await stageCount('hand-off'), await stageCount('intake')];

    await kickLink.webhookDoor.intake.acceptAcknowledged(aVerifiedDelivery('timed'));

    expect([await stageCount('hand-off'), await stageCount('intake')]).toEqual([
      (before[0] ?? 0) + 1,
      (before[1] ?? 0) + 1,
    ]);
  });

  test('when Kick sends a delivery again after its 200, then it is published once', async () => {
    const delivery = aVerifiedDelivery('once');

    await kickLink.webhookDoor.intake.acceptAcknowledged(delivery);
    await kickLink.webhookDoor.intake.acceptAcknowledged({
      ...delivery,
      receivedAt: new Date(clock.now().getTime() + 1),
    });

    expect(publishedFor(delivery.headers.messageId).map((message) => message.content)).toEqual(['once']);
    expect(await deadLetter(delivery.headers.messageId)).toBeUndefined();
  });

  test("when kick-link's own door cannot keep a delivery, then Kick is answered 503 with Retry-After as before, and no dead letter is kept", async () => {
    busState.isDown = true;
    const messageId = aMessageId();
    const timestamp = kickTimestamp(clock.now());
    const response = await postSignedDelivery(`${baseUrl}/api/kick/webhook`, kickKeys.privateKey, {
      type: 'chat.message.sent',
      raw: aChatBody('inline', messageId),
      messageId,
      timestamp,
    });
    await response.arrayBuffer();

    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await deadLetter(messageId)).toBeUndefined();
  });
});

describe('createWebhookIntake, acceptAcknowledged, when a step fails', () => {
  let testStore: TestStore;
  beforeEach(async () => {
    testStore = await createTestStore('kick-link-intake', { clock });
  });
  afterEach(async () => {
    await testStore.close();
  });

  /** Delivery health, recording its dead letters. */
  function aHealthRecorder() {
    const deadLettered: { broadcasterUserId: string | null; reason: string }[] = [];
    const health: DeliveryHealthReporter = {
      deliveryAccepted: () => undefined,
      deliveryRefused: () => undefined,
      deadLettered: (broadcasterUserId, reason) => void deadLettered.push({ broadcasterUserId, reason }),
      reply: () => undefined,
      kickError: () => undefined,
      subscriptionsChecked: () => undefined,
    };
    return { health, deadLettered };
  }

  test('when processing throws, then the delivery is a dead letter, counted in delivery health and logged as an error', async () => {
    const repo = createKickLinkRepository(testStore.store, { oauthStateSeconds: 600 });
    const { health, deadLettered } = aHealthRecorder();
    const captured = captureLog('info');
    const intake = createWebhookIntake({
      processor: { process: () => Promise.reject(new Error('the link lookup failed')) },
      repo,
      health,
      log: captured.log,
    });
    const delivery = aVerifiedDelivery('hello');

    await intake.acceptAcknowledged(delivery);

    expect(await repo.deadLetters.get(delivery.headers.messageId)).toMatchObject({
      reason: 'not-kept: the link lookup failed',
      broadcasterUserId: String(broadcasterId),
      rawBody: delivery.rawBody.toString('utf8'),
    });
    expect(deadLettered).toEqual([
      { broadcasterUserId: String(broadcasterId), reason: 'not-kept: the link lookup failed' },
    ]);
    expect(captured.records().map(({ level, msg, messageId }) => ({ level, msg, messageId }))).toEqual([
      {
        level: 50,
        msg: 'webhook delivery could not be kept after Kick was answered 200: kept as a dead letter, to be replayed',
        messageId: delivery.headers.messageId,
      },
    ]);
  });

  test('when its dead letter cannot be written either, then it is logged as lost and the promise still resolves', async () => {
    const real = createKickLinkRepository(testStore.store, { oauthStateSeconds: 600 });
    const repo = {
      ...real,
      deadLetters: { ...real.deadLetters, keep: () => Promise.reject(new Error('the disk is full')) },
    };
    const { health, deadLettered } = aHealthRecorder();
    const captured = captureLog('info');
    const intake = createWebhookIntake({
      processor: { process: () => Promise.reject(new Error('the bus is down')) },
      repo,
      health,
      log: captured.log,
    });
    const delivery = aVerifiedDelivery('hello');

    await expect(intake.acceptAcknowledged(delivery)).resolves.toBeUndefined();

    expect(deadLettered).toEqual([]);
    expect(captured.records().map(({ level, msg, messageId }) => ({ level, msg, messageId }))).toEqual([
      {
        level: 50,
        msg: 'webhook delivery lost: it could not be kept after Kick was answered 200, nor kept as a dead letter',
        messageId: delivery.headers.messageId,
      },
    ]);
  });
});
