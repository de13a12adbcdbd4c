import { createPrivateKey, createPublicKey, generateKeyPair, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { Clock } from '@kickstand/platform/clock';
import type { Repository } from '../repository';

const generateRsaKeyPair = promisify(generateKeyPair);
const keyDocId = 'signing-key';

/**
 * The sandbox's RSA-2048 key: made at first start and kept in the store, so the public key a
 * product cached stays valid across restarts; or the configured key (`signingKeyPem`), which is
 * used as it is and not stored. Signing follows kick-api.md §8.6: RSA-SHA256,
 * PKCS#1 v1.5, base64, over `messageId + "." + timestamp + "." + rawBody`.
 *
 * Signatures are made in libuv's thread pool (crypto.sign with a callback), not on the main
 * thread: ~0.9 ms of CPU each, which on the main thread delayed the answers to the product's
 * POST /public/v1/chat and the recording of its replies. One at a time: a burst signed on the
 * pool's four threads at once took the 2 cores from this process's own main thread (and from the
 * Kickstand it shares them with); the wait is bounded by the callers (the deliverer's slots).
 * Measured against synchronous signing and worker threads: docs/performance.md, "Signing off the
 * main thread". The bytes are those createSign('RSA-SHA256') makes: PKCS#1 v1.5 is deterministic.
 */
export interface Signer {
  init(): Promise<void>;
  publicKeyPem(): string;
  sign(messageId: string, timestamp: string, body: string): Promise<string>;
  /** A signature of the same length that does not verify (the bad-signature fault). */
  signWrongly(messageId: string, timestamp: string, body: string): Promise<string>;
  /** A new key pair from now on; returns the new public key. */
  rotate(): Promise<string>;
}

interface KeyPair {
  publicKeyPem: string;
  privateKey: KeyObject;
}

export function createSigner({
  repo,
  clock,
  configuredKeyPem,
}: {
  repo: Repository;
  clock: Clock;
  configuredKeyPem?: string;
}): Signer {
  let current: KeyPair | undefined;

  async function generateAndSave(): Promise<KeyPair> {
    const { publicKey, privateKey } = await generateRsaKeyPair('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await repo.meta.updateOne(
      { _id: keyDocId },
      { $set: { value: { publicKeyPem: publicKey, privateKeyPem: privateKey, createdAt: clock.now().toISOString() } } },
      { upsert: true },
    );
    return { publicKeyPem: publicKey, privateKey: createPrivateKey(privateKey) };
  }

  function key(): KeyPair {
    if (!current) throw new Error('the signing key is not loaded: start the sandbox first');
    return current;
  }

  async function signInPool(text: string, privateKey: KeyObject): Promise<string> {
    return new Promise((resolve, reject) =>
      sign('sha256', Buffer.from(text, 'utf8'), privateKey, (error, signature) =>
        error ? reject(error) : resolve(signature.toString('base64')),
      ),
    );
  }

  /** The last signature asked for: the next one starts when it is done. */
  let previous: Promise<unknown> = Promise.resolve();

  async function signText(text: string): Promise<string> {
    const { privateKey } = key();
    const signed = previous.then(() => signInPool(text, privateKey));
    previous = signed.catch(() => undefined);
    return signed;
  }

  return {
    async init() {
      if (configuredKeyPem !== undefined) {
        const privateKey = createPrivateKey(configuredKeyPem);
        const publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
        current = { publicKeyPem, privateKey };
        return;
      }
      const saved = await repo.meta.findOne({ _id: keyDocId });
      const publicKeyPem = saved?.value.publicKeyPem;
      const privateKeyPem = saved?.value.privateKeyPem;
      current =
        publicKeyPem && privateKeyPem
          ? { publicKeyPem, privateKey: createPrivateKey(privateKeyPem) }
          : await generateAndSave();
    },
    publicKeyPem: () => key().publicKeyPem,
    sign: (messageId, timestamp, body) => signText(`${messageId}.${timestamp}.${body}`),
    // signing a different text with the real key keeps the header plausible (right length, valid base64)
    signWrongly: (messageId, timestamp, body) => signText(`${messageId}.${timestamp}.${body} `),
    async rotate() {
      current = await generateAndSave();
      return current.publicKeyPem;
    },
  };
}
