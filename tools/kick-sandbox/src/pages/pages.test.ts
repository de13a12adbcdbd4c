import { startSandboxForTest, type SandboxHarness } from '../testing/sandbox-harness';

describe('pages', () => {
  let sandbox: SandboxHarness;
  beforeAll(async () => {
    sandbox = await startSandboxForTest();
  });
  afterAll(() => sandbox.close());

  test('when / is opened, then it says how to point the product here and links the chat page', async () => {
    const answer = await sandbox.request('GET', '/');
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('href="/sandbox"');
    expect(answer.text).toContain('http://localhost:3100/public/v1');
    expect(answer.text).toContain('kickstand-test');
  });

  test('when /sandbox is opened, then a page with channels, badges and a nonce-protected inline script', async () => {
    const answer = await sandbox.request('GET', '/sandbox');
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/<option value="4377088" selected>sandbox_streamer/);
    expect(answer.text).toContain('value="moderator"');
    const nonce = /<script nonce="([^"]+)">/.exec(answer.text)?.[1];
    expect(nonce).toBeDefined();
    expect(answer.headers.get('content-security-policy')).toContain(`script-src 'nonce-${nonce}'`);
    expect(answer.text).not.toMatch(/<script src=|<link /);
  });

  test('when a user name would be markup, then pages escape it', async () => {
    // usernames cannot hold markup, but channel titles can: the index page shows them
    await sandbox.control('PATCH', '/channels/sandbox_streamer', { streamTitle: '<img src=x onerror=alert(1)>' });
    const answer = await sandbox.request('GET', '/');
    expect(answer.text).not.toContain('<img src=x');
    expect(answer.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  test('when a placeholder image is asked for, then an SVG other origins may show; an unknown name is 404', async () => {
    const image = await sandbox.request('GET', '/sandbox/images/user-4377088.svg');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    expect(image.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(image.text).toContain('>S</text>');
    expect((await sandbox.request('GET', '/sandbox/images/../../etc/passwd')).status).toBe(404);
  });

  test('when /healthz and /readyz are called, then the sandbox is alive and its store ready', async () => {
    expect((await sandbox.request('GET', '/healthz')).status).toBe(200);
    expect((await sandbox.request('GET', '/readyz')).json).toMatchObject({ data: { checks: { store: 'up' } } });
  });
});
