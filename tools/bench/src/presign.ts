import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { chatMessageSentBody, createUlidSource, rfc3339Seconds, type SignedDelivery } from './kick-delivery';
import type { BenchChannel, PlannedMessage } from './workload';

/**
 * RSA-2048 signing costs ~0.7 ms of CPU per delivery: 3,000 a second would need two cores on their
 * own. Kick signs on its own machines, so the generator signs a phase's deliveries before the
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

/** Signing costs about this much CPU per delivery (RSA-2048). */
const signingCpuMsPerDelivery = 0.7;

/**
 * When a phase of `count` deliveries can start once signed: on a whole second (so a delivery sent
 * on time arrives within its created_at's second, as Kick's do), after twice the expected signing
 * time and one second more.
 */
export function plannedStart(count: number, nowMs = Date.now()): number {
  const signingMs = (count * signingCpuMsPerDelivery) / Math.max(1, availableParallelism());
  return Math.ceil((nowMs + 2 * signingMs + 1000) / 1000) * 1000;
}

export interface PresignedPhase {
  deliveries: SignedDelivery[];
  /** The chat message id (what the bot's reply points at) of each planned message. */
  chatMessageIds: string[];
  signingSeconds: number;
}

/** A phase's deliveries before signing, and the chat message id of each. */
export function unsignedDeliveries(
  plan: readonly PlannedMessage[],
  channels: readonly BenchChannel[],
  startsAtEpochMs: number,
  nowMs = Date.now(),
) {
  const ulid = createUlidSource();
  const chatMessageIds: string[] = new Array(plan.length);
  const unsigned = plan.map((message, i) => {
    const channel = channels[message.channel] as BenchChannel;
    const chatMessageId = randomUUID();
    chatMessageIds[i] = chatMessageId;
    const plannedAt = rfc3339Seconds(startsAtEpochMs + message.atMs);
    return {
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
  });
  return { unsigned, chatMessageIds };
}

export async function presign(
  plan: readonly PlannedMessage[],
  channels: readonly BenchChannel[],
  privateKeyPem: string,
  startsAtEpochMs: number,
): Promise<PresignedPhase> {
  const started = performance.now();
  const { unsigned, chatMessageIds } = unsignedDeliveries(plan, channels, startsAtEpochMs);

  const workerCount = Math.max(1, availableParallelism());
  const workers = Array.from(
    { length: workerCount },
    () => new Worker(path.join(__dirname, 'sign-worker.js'), { workerData: { privateKeyPem } }),
  );
  const signatures: string[] = new Array(plan.length);
  const batchSize = 500;
  try {
    let nextStart = 0;
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            let batchStart = 0;
            const sendNext = () => {
              if (nextStart >= unsigned.length) {
                resolve();
                return;
              }
              batchStart = nextStart;
              nextStart = Math.min(unsigned.length, nextStart + batchSize);
              const items = unsigned
                .slice(batchStart, nextStart)
                .map((d) => [d.messageId, d.timestamp, d.body] as [string, string, string]);
              worker.postMessage({ id: batchStart, items });
            };
            worker.on('message', (answer: { id: number; signatures: string[] }) => {
              answer.signatures.forEach((signature, offset) => {
                signatures[answer.id + offset] = signature;
              });
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
  const deliveries = unsigned.map((d, i) => ({ ...d, signature: signatures[i] as string }));
  return { deliveries, chatMessageIds, signingSeconds: (performance.now() - started) / 1000 };
}
