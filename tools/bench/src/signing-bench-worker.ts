import { createPrivateKey, sign } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * A thread of signing-bench's `worker` mode: one text in, its RSA-SHA256 signature (base64) out,
 * as a pool the Kick sandbox could sign its webhooks with would work.
 */
export interface SignRequest {
  id: number;
  text: string;
}

export interface SignAnswer {
  id: number;
  signature: string;
}

const key = createPrivateKey((workerData as { privateKeyPem: string }).privateKeyPem);

parentPort?.on('message', ({ id, text }: SignRequest) => {
  const answer: SignAnswer = { id, signature: sign('sha256', Buffer.from(text, 'utf8'), key).toString('base64') };
  parentPort?.postMessage(answer);
});
