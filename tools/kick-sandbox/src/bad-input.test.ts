import { startSandboxForTest, type SandboxHarness } from './testing/sandbox-harness';

/** Every door answers bad input with a 4xx in its own shape: never a 500. */
describe('bad input anywhere', () => {
  let sandbox: SandboxHarness;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandboxForTest();
    token = (
      await sandbox.linkUser('sandbox_streamer', [
        'user:read',
        'chat:write',
        'moderation:chat_message:manage',
        'events:subscribe',
      ])
    ).access_token;
  });
  afterAll(() => sandbox.close());

  const garbage: [string, string, unknown][] = [
    ['GET', '/sandbox/api/users/%ZZ', undefined],
    ['DELETE', '/public/v1/chat/%ZZ', undefined],
    ['POST', '/public/v1/chat', '[1,2,3]'],
    ['POST', '/public/v1/chat', 'null'],
    ['POST', '/public/v1/chat', '"text"'],
    ['POST', '/public/v1/events/subscriptions', { method: 'webhook', events: 'all' }],
    ['POST', '/public/v1/events/subscriptions', { method: 'webhook', broadcaster_user_id: 1e308, events: [] }],
    ['GET', '/public/v1/channels?broadcaster_user_id=99999999999999999999', undefined],
    ['GET', '/public/v1/users?id=1&id=x', undefined],
    ['POST', '/sandbox/api/events/chat', { broadcaster: { $gt: 1 }, sender: 'a_b_c', content: 'x' }],
    ['POST', '/sandbox/api/events/raw', { broadcaster: 4377088, type: 'x.y', payload: { 'a.b': { $set: 1 } } }],
    ['PATCH', '/sandbox/api/faults', '[]'],
    ['GET', '/sandbox/api/deliveries?afterSeq=-1', undefined],
    ['GET', '/sandbox/api/chat?since=yesterday', undefined],
    ['POST', '/oauth/authorize/decision', '{"x":1}'],
  ];

  test.each(garbage)('when %s %s gets garbage, then a 4xx', async (method, path, body) => {
    const answer = await sandbox.request(method, path, { token, body });
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
  });

  test('when the token endpoint gets a huge form, then a 4xx in the OAuth shape', async () => {
    const answer = await sandbox.request('POST', '/oauth/token', { form: { grant_type: 'x'.repeat(30_000) } });
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ error: 'Invalid request' });
  });
});
