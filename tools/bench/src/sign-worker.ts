import { createPrivateKey } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { signBatch, type DeliveryTarget, type SignBatch, type SignedBatch } from './presign';

/**
 * A worker thread of the pre-signing pool: a batch of deliveries in, their signed HTTP requests
 * out, packed into one buffer whose memory is handed over to the generator's thread (transferred,
 * not copied).
 */
const options = workerData as DeliveryTarget & { privateKeyPem: string };
const key = createPrivateKey(options.privateKeyPem);

parentPort?.on('message', (batch: SignBatch) => {
  const { bytes, ends } = signBatch(key, options, batch.items);
  const answer: SignedBatch = { id: batch.id, bytes: bytes.buffer as ArrayBuffer, ends };
  parentPort?.postMessage(answer, [answer.bytes, ends.buffer as ArrayBuffer]);
});
