import { randomUUID } from 'node:crypto';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import { createFakeClock, createTestPlatform, eventually, type TestPlatform } from '@kickstand/platform/testing';
import { CommandKind, UserChangeKind, UserRole, timestampFromDate } from '@kickstand/proto';
import { createCommandsService } from '../service';
import { createCommandUsageRepository } from './repository';

const clock = createFakeClock(new Date('2026-11-25T18:30:00Z'));
let platform: TestPlatform;
let running: RunningService;
let baseUrl: string;

beforeAll(async () => {
  platform = await createTestPlatform('commands', { clock });
  running = await startHttpService(createCommandsService(platform), { port: 0 });
  baseUrl = `http://127.0.0.1:${running.port}`;
});

afterAll(async () => {
  await running.stop();
  await platform.close();
});

function aStreamer(id = `u-${randomUUID()}`) {
  const token = platform.signToken({ userId: id, username: `name-${id}`, role: 'USER' });
  const send = async (method: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${method === 'GET' ? '/api/commands/usage' : '/api/commands'}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { data?: unknown } };
  };
  return { id, usage: () => send('GET'), add: (command: string) => send('POST', { command, response: 'hi' }) };
}

const executed = (
  ownerUserId: string,
  command: string,
  at: string,
  eventId: string = randomUUID(),
  kind = CommandKind.CUSTOM,
) =>
  platform.bus.publish('command.executed', ownerUserId, {
    eventId,
    ownerUserId,
    command,
    kind,
    occurredAt: timestampFromDate(new Date(at)),
    executedAt: timestampFromDate(new Date(at)),
    broadcasterUserId: '1',
    invokedByUsername: 'viewer',
    invokedByUserId: '2',
    messageId: randomUUID(),
    response: 'hi',
  });

describe('GET /api/commands/usage', () => {
  test('when custom commands ran, then each of the streamer’s commands has its 24 h and 7 day runs and last use', async () => {
    const streamer = aStreamer();
    await streamer.add('hug');
    await streamer.add('Discord');
    await executed(streamer.id, 'hug', '2026-11-25T18:10:00Z', 'e1');
    await executed(streamer.id, 'hug', '2026-11-25T18:10:00Z', 'e1'); // delivered again
    await executed(streamer.id, 'HUG', '2026-11-20T09:00:00Z');
    await executed(streamer.id, 'hero', '2026-11-25T18:11:00Z', randomUUID(), CommandKind.BUILT_IN);

    await eventually(async () =>
      expect((await streamer.usage()).body.data).toEqual([
        { command: 'discord', last24Hours: 0, last7Days: 0, lastUsedAt: null },
        { command: 'hug', last24Hours: 1, last7Days: 2, lastUsedAt: '2026-11-25T18:10:00.000Z' },
      ]),
    );
  });

  test('when the streamer is deleted, then their usage goes', async () => {
    const streamer = aStreamer();
    await streamer.add('hug');
    await executed(streamer.id, 'hug', '2026-11-25T18:10:00Z');
    await eventually(async () =>
      expect((await streamer.usage()).body.data).toEqual([
        { command: 'hug', last24Hours: 1, last7Days: 1, lastUsedAt: '2026-11-25T18:10:00.000Z' },
      ]),
    );
    await platform.bus.publish('user.changed', streamer.id, {
      eventId: randomUUID(),
      userId: streamer.id,
      kind: UserChangeKind.DELETED,
      username: 'x',
      role: UserRole.USER,
      isActive: false,
    });
    // a deleted user's token no longer signs in: the store tells
    const repo = createCommandUsageRepository(platform.store);
    await eventually(async () => expect(await repo.listOf(streamer.id)).toEqual([]));
  });
});
