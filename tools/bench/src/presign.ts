import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ChatMessageIndex } from './chat-message-ids';
import {
  chatMessageSentBody,
  createUlidSource,
  deliveryRequestHead,
  kickSignature,
  rfc3339Seconds,
  type Delivery,
} from './kick-delivery';
import { packRequests, RequestArena, type RequestBatch } from './request-arena';
import type { BenchChannel, PlannedMessage } from './workload';

/**
 * RSA-2048 signing costs 0.3–0.7 ms of CPU per delivery: 3,000 a second would need one or two cores
 * on their own. Kick signs on its own machines, so the generator signs a phase's deliveries before the
 * phase, on every core, and only writes bytes while it runs. The timestamp header is the time the
 * delivery is planned to be sent, as Kick stamps a delivery when it sends it: with the signing time
 * instead, a phase longer than a few minutes ran out of the product's ±5 minute window and its
 * later deliveries were refused (401).
 *
 * Each message's `created_at` is the time it is planned to be sent (`startsAtEpochMs` + its
 * `atMs`), as Kick stamps when the viewer typed it: the product judges cooldowns on it, so a
 * created_at shared by a whole phase would make every repeated command of a backlog look like
 * one typed in the same second. The phase must then start at `startsAtEpochMs` (see
 * `plannedStart`).
 */

/**
 * What one signature costs on this machine now (RSA-2048: 0.3–0.7 ms), measured on deliveries of a
 * chat line's size: a fixed guess planned long phases' starts minutes late (0.7 ms planned where
 * 0.29 ms was spent, ~11 minutes of waiting before a 20-minute phase). The fastest of a few rounds
 * by the wall clock: the process's CPU time would count its other threads (the collector's, busy
 * after the plan was built), and a busy moment of the machine slows a round, not all of them.
 */
export function measureSigningMs(privateKeyPem: string, rounds = 5, perRound = 40): number {
  const privateKey = createPrivateKey(privateKeyPem);
  const delivery = {
    messageId: createUlidSource()(Date.now()),
    subscriptionId: randomUUID(),
    timestamp: rfc3339Seconds(Date.now()),
    body: 'x'.repeat(800),
  };
  kickSignature(privateKey, delivery);
  let fastest = Infinity;
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    for (let signature = 0; signature < perRound; signature += 1) kickSignature(privateKey, delivery);
    fastest = Math.min(fastest, (performance.now() - started) / perRound);
  }
  return fastest;
}

/**
 * When a phase of `count` deliveries can start once signed: on a whole second (so a delivery sent
 * on time arrives within its created_at's second, as Kick's do), after twice the expected signing
 * time (`signatureMs` a delivery, on every core) and one second more.
 */
export function plannedStart(count: number, signatureMs: number, nowMs = Date.now()): number {
  const signingMs = (count * signatureMs) / Math.max(1, availableParallelism());
  return Math.ceil((nowMs + 2 * signingMs + 1000) / 1000) * 1000;
}

export interface PresignedPhase {
  /** Each delivery's whole HTTP request (headers, body, signature), ready to write. */
  requests: RequestArena;
  /** The chat message id (what the bot's reply points at) of each planned message. */
  chatMessageIds: ChatMessageIndex;
  signingSeconds: number;
}

/** Where the deliveries go: the Host header and path of their requests. */
export interface DeliveryTarget {
  hostHeader: string;
  path: string;
}

/**
 * Makes the deliveries of a phase one planned message at a time, before signing: the message id
 * (ULIDs of `nowMs`, in the plan's order), the planned send time as timestamp and created_at, and
 * a fresh chat message id.
 */
export function createDeliveryMaker(channels: readonly BenchChannel[], startsAtEpochMs: number, nowMs = Date.now()) {
  const ulid = createUlidSource();
  return (message: PlannedMessage): { delivery: Delivery; chatMessageId: string } => {
    const channel = channels[message.channel] as BenchChannel;
    const chatMessageId = randomUUID();
    const plannedAt = rfc3339Seconds(startsAtEpochMs + message.atMs);
    const delivery = {
      messageId: ulid(nowMs),
      subscriptionId: channel.subscriptionId,
      timestamp: plannedAt,
      body: chatMessageSentBody({
        chatMessageId,
        broadcaster: { userId: channel.kickUserId, username: channel.kickUsername },
        sender: { userId: message.senderUserId, username: message.senderUsername },
        content: message.content,
        createdAt: plannedAt,
      }),
    };
    return { delivery, chatMessageId };
  };
}

/** What a signing worker is given: a batch of deliveries, the first being delivery `id` of the phase. */
export interface SignBatch {
  id: number;
  items: [messageId: string, subscriptionId: string, timestamp: string, body: string][];
}

/** And what it answers: the batch's requests packed into one transferred buffer. */
export interface SignedBatch {
  id: number;
  bytes: ArrayBuffer;
  ends: Uint32Array;
}

/**
 * What a signing worker does with a batch: signs each delivery (RSA-SHA256 over
 * `<message id>.<timestamp>.<raw body>`) and packs the whole requests, end to end.
 */
export function signBatch(
  privateKey: KeyObject | string,
  target: DeliveryTarget,
  items: SignBatch['items'],
): RequestBatch {
  return packRequests(
    items.map(([messageId, subscriptionId, timestamp, body]) => {
      const delivery = { messageId, subscriptionId, timestamp, body };
      const signed = { ...delivery, signature: kickSignature(privateKey, delivery) };
      return { head: deliveryRequestHead(target.hostHeader, target.path, signed, Buffer.byteLength(body)), body };
    }),
  );
}

export async function presign(
  plan: readonly PlannedMessage[],
  channels: readonly BenchChannel[],
  privateKeyPem: string,
  startsAtEpochMs: number,
  target: DeliveryTarget,
): Promise<PresignedPhase> {
  const started = performance.now();
  const makeDelivery = createDeliveryMaker(channels, startsAtEpochMs);
  const requests = new RequestArena(plan.length);
  const chatMessageIds = new ChatMessageIndex(plan.length);

  const workerCount = Math.max(1, availableParallelism());
  const workers = Array.from(
    { length: workerCount },
    () =>
      new Worker(path.join(__dirname, 'sign-worker.js'), {
        workerData: { privateKeyPem, hostHeader: target.hostHeader, path: target.path },
      }),
  );
  const batchSize = 500;
  try {
    let nextStart = 0;
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const sendNext = () => {
              if (nextStart >= plan.length) {
                resolve();
                return;
              }
              const batch: SignBatch = { id: nextStart, items: [] };
              nextStart = Math.min(plan.length, nextStart + batchSize);
              // made batch by batch, so the phase's bodies are never all on the heap at once
              for (let i = batch.id; i < nextStart; i++) {
                const { delivery, chatMessageId } = makeDelivery(plan[i] as PlannedMessage);
                chatMessageIds.set(i, chatMessageId);
                batch.items.push([delivery.messageId, delivery.subscriptionId, delivery.timestamp, delivery.body]);
              }
              worker.postMessage(batch);
            };
            worker.on('message', (answer: SignedBatch) => {
              requests.add(answer.id, { bytes: Buffer.from(answer.bytes), ends: answer.ends });
              sendNext();
            });
            worker.on('error', reject);
            sendNext();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  if (!requests.isComplete) throw new Error('some deliveries were not signed');
  return { requests, chatMessageIds, signingSeconds: (performance.now() - started) / 1000 };
}
