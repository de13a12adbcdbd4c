import { createPrivateKey } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { kickSignature } from './kick-delivery';

/** A worker thread of the pre-signing pool: [message id, timestamp, body] triples in, signatures out. */
const key = createPrivateKey((workerData as { privateKeyPem: string }).privateKeyPem);

parentPort?.on('message', (batch: { id: number; items: [string, string, string][] }) => {
  const signatures = batch.items.map(([messageId, timestamp, body]) =>
    kickSignature(key, { messageId, timestamp, body, subscriptionId: '' }),
  );
  parentPort?.postMessage({ id: batch.id, signatures });
});
