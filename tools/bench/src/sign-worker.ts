import { createPrivateKey } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { deliveryRequestHead, kickSignature } from './kick-delivery';
import type { SignBatch, SignedBatch } from './presign';
import { packRequests } from './request-arena';

/**
 * A worker thread of the pre-signing pool: a batch of deliveries in, their signed HTTP requests
 * out, packed into one buffer whose memory is handed over to the generator's thread (transferred,
 * not copied).
 */
const options = workerData as { privateKeyPem: string; hostHeader: string; path: string };
const key = createPrivateKey(options.privateKeyPem);

parentPort?.on('message', (batch: SignBatch) => {
  const parts = batch.items.map(([messageId, subscriptionId, timestamp, body]) => {
    const delivery = { messageId, subscriptionId, timestamp, body };
    const signed = { ...delivery, signature: kickSignature(key, delivery) };
    return { head: deliveryRequestHead(options.hostHeader, options.path, signed, Buffer.byteLength(body)), body };
  });
  const { bytes, ends } = packRequests(parts);
  const answer: SignedBatch = { id: batch.id, bytes: bytes.buffer as ArrayBuffer, ends };
  parentPort?.postMessage(answer, [answer.bytes, ends.buffer as ArrayBuffer]);
});
