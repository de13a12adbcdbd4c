import { createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import { createFakeClock, createTestStore, type TestStore } from '@kickstand/platform/testing';
import { createRepository, type Repository } from '../repository';
import { createSigner } from './signer';

const { privateKey: configuredKeyPem, publicKey: configuredPublicKeyPem } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

/** What the signer made before it signed off the main thread: the reference every signature must equal. */
const signedOnTheMainThread = (privateKeyPem: string, text: string) =>
  createSign('RSA-SHA256').update(text).sign(privateKeyPem, 'base64');

const verifies = (publicKeyPem: string, text: string, signature: string) =>
  createVerify('RSA-SHA256').update(text).verify(publicKeyPem, signature, 'base64');

const deliveries = [
  { messageId: '01JNM8ZQ3X5W7Y9A1B2C3D4E5F', timestamp: '2026-03-02T18:04:11Z', body: '{"content":"hello"}' },
  // not ASCII: the text is signed as UTF-8, as the body is sent
  { messageId: '01JNM8ZQ3X5W7Y9A1B2C3D4E5G', timestamp: '2026-03-02T18:04:12Z', body: '{"content":"héllo 👋 привет"}' },
  { messageId: '01JNM8ZQ3X5W7Y9A1B2C3D4E5H', timestamp: '2026-03-02T18:04:13Z', body: '' },
];

describe('the webhook signer', () => {
  let testStore: TestStore;
  let repo: Repository;
  const clock = createFakeClock();
  beforeEach(async () => {
    testStore = await createTestStore('signer');
    repo = createRepository(testStore.store);
  });
  afterEach(() => testStore.close());

  test('when deliveries are signed with the configured key, then each signature is the bytes createSign(RSA-SHA256) makes over "<message id>.<timestamp>.<body>"', async () => {
    const signer = createSigner({ repo, clock, configuredKeyPem });
    await signer.init();
    const signatures = await Promise.all(
      deliveries.map(({ messageId, timestamp, body }) => signer.sign(messageId, timestamp, body)),
    );
    expect(signatures).toEqual(
      deliveries.map(({ messageId, timestamp, body }) =>
        signedOnTheMainThread(configuredKeyPem, `${messageId}.${timestamp}.${body}`),
      ),
    );
    expect(signer.publicKeyPem()).toBe(configuredPublicKeyPem);
  });

  test('when deliveries are signed with the key made at first start, then each signature is what createSign makes with the stored key', async () => {
    const signer = createSigner({ repo, clock });
    await signer.init();
    const stored = await repo.meta.findOne({ _id: 'signing-key' });
    const privateKeyPem = stored?.value.privateKeyPem ?? '';
    for (const { messageId, timestamp, body } of deliveries) {
      const text = `${messageId}.${timestamp}.${body}`;
      const signature = await signer.sign(messageId, timestamp, body);
      expect(signature).toBe(signedOnTheMainThread(privateKeyPem, text));
      expect(verifies(signer.publicKeyPem(), text, signature)).toBe(true);
    }
  });

  test('when a delivery is signed wrongly, then the signature is as long, valid base64, does not verify, and is what the signer always made for the fault', async () => {
    const signer = createSigner({ repo, clock, configuredKeyPem });
    await signer.init();
    for (const { messageId, timestamp, body } of deliveries) {
      const text = `${messageId}.${timestamp}.${body}`;
      const wrong = await signer.signWrongly(messageId, timestamp, body);
      expect(wrong).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(wrong).toHaveLength((await signer.sign(messageId, timestamp, body)).length);
      expect(verifies(configuredPublicKeyPem, text, wrong)).toBe(false);
      expect(wrong).toBe(signedOnTheMainThread(configuredKeyPem, `${text} `));
    }
  });

  test('when the key was not loaded yet, then signing rejects and says to start the sandbox first', async () => {
    const signer = createSigner({ repo, clock, configuredKeyPem });
    await expect(signer.sign('01JNM8ZQ3X5W7Y9A1B2C3D4E5F', '2026-03-02T18:04:11Z', '{}')).rejects.toThrow(
      'the signing key is not loaded: start the sandbox first',
    );
  });
});
