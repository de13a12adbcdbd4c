import { createVerify, generateKeyPairSync } from 'node:crypto';
import {
  chatMessageSentBody,
  createUlidSource,
  deliveryHeaders,
  deliveryRequest,
  kickSignature,
  rfc3339Seconds,
  type Delivery,
} from './kick-delivery';

// kick-api.md §8.6, verbatim (hence no formatting): what the product runs on every delivery.
// prettier-ignore
function isKickSignatureValid(
  publicKeyPem: string,
  headers: { messageId: string; timestamp: string; signature: string },
  rawBody: Buffer,
): boolean {
  const verifier = createVerify("RSA-SHA256");          // PKCS#1 v1.5 padding for RSA keys
  verifier.update(`${headers.messageId}.${headers.timestamp}.`);
  verifier.update(rawBody);
  verifier.end();
  return verifier.verify(publicKeyPem, headers.signature, "base64");
}

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

const delivery: Delivery = {
  messageId: '01JNM0ZQ4V8Y3K2X9T7R5P1QWE',
  subscriptionId: '01JNM0ZQ4V8Y3K2X9T7R5P1SUB',
  timestamp: '2026-03-02T18:04:11Z',
  body: chatMessageSentBody({
    chatMessageId: '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c',
    broadcaster: { userId: 4377088, username: 'some_streamer' },
    sender: { userId: 555002, username: 'viewer_b' },
    content: '$c1 hello — ünïcödé',
    createdAt: '2026-03-02T18:04:11Z',
  }),
};

describe('a signed delivery', () => {
  test("when the generator signs a delivery, then kick-api.md §8.6's check accepts it", () => {
    const signature = kickSignature(privateKey, delivery);
    expect(isKickSignatureValid(publicKey, { ...delivery, signature }, Buffer.from(delivery.body))).toBe(true);
  });

  test('when one byte of the body, the id or the timestamp changes, then the check refuses it', () => {
    const signature = kickSignature(privateKey, delivery);
    const body = Buffer.from(delivery.body);
    expect(isKickSignatureValid(publicKey, { ...delivery, signature }, Buffer.from(`${delivery.body} `))).toBe(false);
    expect(isKickSignatureValid(publicKey, { ...delivery, messageId: 'x', signature }, body)).toBe(false);
    expect(isKickSignatureValid(publicKey, { ...delivery, timestamp: '2026-03-02T18:04:12Z', signature }, body)).toBe(
      false,
    );
  });

  test('when the request is built, then it carries the six Kick-Event-* headers and the body byte for byte', () => {
    const signature = kickSignature(privateKey, delivery);
    const request = deliveryRequest('127.0.0.1:3000', '/api/kick/webhook', { ...delivery, signature }).toString('utf8');
    const [head, body] = request.split('\r\n\r\n');
    expect(body).toBe(delivery.body);
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(delivery.body)}`);
    expect(
      Object.keys(deliveryHeaders({ ...delivery, signature })).filter((name) => name.startsWith('Kick-Event-')),
    ).toEqual([
      'Kick-Event-Message-Id',
      'Kick-Event-Subscription-Id',
      'Kick-Event-Signature',
      'Kick-Event-Message-Timestamp',
      'Kick-Event-Type',
      'Kick-Event-Version',
    ]);
    expect(head?.startsWith('POST /api/kick/webhook HTTP/1.1\r\nHost: 127.0.0.1:3000\r\n')).toBe(true);
  });

  test('when the request is built, then its bytes are those the generator has always sent (f7af5eb)', () => {
    // deliveryRequest of f7af5eb (before requests were packed off the heap) for this delivery, base64
    const sentBefore =
      'UE9TVCAvYXBpL2tpY2svd2ViaG9vayBIVFRQLzEuMQ0KSG9zdDogMTI3LjAuMC4xOjMwMDANCkNvbnRlbnQtTGVuZ3RoOiA1MTcNCkNvbnRlbnQtVHlwZTogYXBwbGljYXRpb24vanNvbg0KS2ljay1FdmVudC1NZXNzYWdlLUlkOiAwMUpOTTBaUTRWOFkzSzJYOVQ3UjVQMVFXRQ0KS2ljay1FdmVudC1TdWJzY3JpcHRpb24tSWQ6IDAxSk5NMFpRNFY4WTNLMlg5VDdSNVAxU1VCDQpLaWNrLUV2ZW50LVNpZ25hdHVyZTogYzJsbmJtRjBkWEpsKy89PQ0KS2ljay1FdmVudC1NZXNzYWdlLVRpbWVzdGFtcDogMjAyNi0wMy0wMlQxODowNDoxMVoNCktpY2stRXZlbnQtVHlwZTogY2hhdC5tZXNzYWdlLnNlbnQNCktpY2stRXZlbnQtVmVyc2lvbjogMQ0KDQp7Im1lc3NhZ2VfaWQiOiI1YjBlM2E5Yy02ZjFkLTRlMmEtYjdjOC05ZDBlMWYyYTNiNGMiLCJyZXBsaWVzX3RvIjpudWxsLCJicm9hZGNhc3RlciI6eyJpc19hbm9ueW1vdXMiOmZhbHNlLCJ1c2VyX2lkIjo0Mzc3MDg4LCJ1c2VybmFtZSI6InNvbWVfc3RyZWFtZXIiLCJpc192ZXJpZmllZCI6ZmFsc2UsInByb2ZpbGVfcGljdHVyZSI6IiIsImNoYW5uZWxfc2x1ZyI6InNvbWVfc3RyZWFtZXIiLCJpZGVudGl0eSI6bnVsbH0sInNlbmRlciI6eyJpc19hbm9ueW1vdXMiOmZhbHNlLCJ1c2VyX2lkIjo1NTUwMDIsInVzZXJuYW1lIjoidmlld2VyX2IiLCJpc192ZXJpZmllZCI6ZmFsc2UsInByb2ZpbGVfcGljdHVyZSI6IiIsImNoYW5uZWxfc2x1ZyI6InZpZXdlcl9iIiwiaWRlbnRpdHkiOnsidXNlcm5hbWVfY29sb3IiOiIjMUU5MEZGIiwiYmFkZ2VzIjpbXX19LCJjb250ZW50IjoiJGMxIGhlbGxvIOKAlCDDvG7Dr2PDtmTDqSIsImVtb3RlcyI6W10sImNyZWF0ZWRfYXQiOiIyMDI2LTAzLTAyVDE4OjA0OjExWiJ9';

    const request = deliveryRequest('127.0.0.1:3000', '/api/kick/webhook', {
      ...delivery,
      signature: 'c2lnbmF0dXJl+/==',
    });

    expect(request.toString('base64')).toBe(sentBefore);
  });

  test('when the body is parsed, then it has the fields of chat.message.sent (§8.9)', () => {
    expect(JSON.parse(delivery.body)).toMatchObject({
      message_id: '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c',
      broadcaster: { user_id: 4377088, username: 'some_streamer', identity: null },
      sender: { user_id: 555002, username: 'viewer_b', identity: { badges: [] } },
      content: '$c1 hello — ünïcödé',
      created_at: '2026-03-02T18:04:11Z',
    });
  });
});

describe('ids and timestamps', () => {
  test('when ULIDs are made in the same millisecond, then they are distinct, 26 characters and increasing', () => {
    const ulid = createUlidSource();
    const ids = Array.from({ length: 1000 }, () => ulid(1_700_000_000_000));
    expect(new Set(ids).size).toBe(1000);
    expect(ids.every((id) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(ulid(1_700_000_000_001) > (ids.at(-1) ?? '')).toBe(true);
  });

  test('when a time is written as Kick writes it, then it is UTC with whole seconds', () => {
    expect(rfc3339Seconds(Date.UTC(2026, 2, 2, 18, 4, 11, 999))).toBe('2026-03-02T18:04:11Z');
  });
});
