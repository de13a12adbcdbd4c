import { randomUUID } from 'node:crypto';
import { allChannelsRangeMessage, analyticsRangeMessage } from '@kickstand/api-contract';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import { createTestPlatform, eventually, type TestPlatform } from '@kickstand/platform/testing';
import { timestampFromDate } from '@kickstand/proto';
import { createRealtimeService } from '../service';

let platform: TestPlatform;
let running: RunningService;

beforeAll(async () => {
  platform = await createTestPlatform('realtime');
  running = await startHttpService(createRealtimeService(platform, { instanceId: 'analytics' }), { port: 0 });
});

afterAll(async () => {
  await running.stop();
  await platform.close();
});

const aUser = () => {
  const userId = `u-${randomUUID()}`;
  return { userId, token: platform.signToken({ userId, username: `name-${userId}`, role: 'USER' }) };
};

const get = (path: string, token?: string) =>
  fetch(`http://127.0.0.1:${running.port}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('GET /api/analytics/stream', () => {
  test('when viewers chat in the streamer’s channel, then the 7-day report counts their lines (not another channel’s)', async () => {
    const streamer = aUser();
    const other = aUser();
    const now = new Date();
    for (const [owner, username] of [
      [streamer.userId, 'viewer_a'],
      [streamer.userId, 'viewer_b'],
      [streamer.userId, 'viewer_a'],
      [other.userId, 'viewer_c'],
    ] as const) {
      await platform.bus.publish('chat.received', '4377088', {
        eventId: randomUUID(),
        messageId: randomUUID(),
        broadcasterUserId: '4377088',
        ownerUserId: owner,
        sender: { username },
        content: 'hello',
        createdAt: timestampFromDate(now),
        receivedAt: timestampFromDate(now),
      });
    }

    await eventually(async () => {
      const response = await get('/api/analytics/stream?range=7d', streamer.token);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: { totals: unknown; topChatters: unknown } };
      expect(body.data.totals).toMatchObject({ messages: 3, uniqueChatters: 2 });
      expect(body.data.topChatters).toEqual([
        { username: 'viewer_a', messages: 2 },
        { username: 'viewer_b', messages: 1 },
      ]);
    });
  });

  test('when the range is unknown, then 400 names the ranges', async () => {
    const response = await get('/api/analytics/stream?range=year', aUser().token);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, error: analyticsRangeMessage });
  });

  test('when no range is given, then the last stream is reported (none seen yet: empty)', async () => {
    const response = await get('/api/analytics/stream', aUser().token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, data: { range: 'last-stream', stream: null } });
  });

  test('when no token is sent, then 401', async () => {
    expect((await get('/api/analytics/stream?range=7d')).status).toBe(401);
  });
});

describe('GET /api/admin/analytics/stream', () => {
  const anAdmin = () => platform.signToken({ userId: `a-${randomUUID()}`, username: 'root', role: 'SUPER_ADMIN' });

  test('when an administrator asks, then every channel’s counts are reported, 7 days unless told', async () => {
    const response = await get('/api/admin/analytics/stream', anAdmin());
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { range: string; stepSeconds: number } };
    expect(body.data).toMatchObject({ range: '7d', stepSeconds: 3600 });
  });

  test('when a streamer asks, then 403', async () => {
    expect((await get('/api/admin/analytics/stream', aUser().token)).status).toBe(403);
  });

  test('when the last stream is asked, then 400 names the two ranges', async () => {
    const response = await get('/api/admin/analytics/stream?range=last-stream', anAdmin());
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, error: allChannelsRangeMessage });
  });
});
