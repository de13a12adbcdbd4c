import { randomUUID } from 'node:crypto';
import type { DeadLetter } from '@kickstand/platform/bus';
import { ChangeKind, CommandKind, timestampFromDate } from '@kickstand/proto';
import { daysEndingAt, seenKeyOf, summariseUsage } from './analytics';
import { eventually, settle, startAuthForTest, type ApiResponse, type TestAuth } from './testing/test-utils';

// startAuthForTest's fake clock stands at 2026-03-01T12:00:00Z
const today = '2026-03-01';
const dayAt = (date: string, time = '20:00:00') => new Date(`${date}T${time}Z`);

const expectError = (response: ApiResponse, status: number, error: string) => {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: expect.objectContaining({ success: false, error }),
  });
};

describe('command usage, pure', () => {
  test('when 3 days end on a day, then they run oldest first and cross a month end', () => {
    expect(daysEndingAt(new Date('2026-03-01T00:30:00Z'), 3)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(daysEndingAt(new Date('2026-03-01T23:59:59Z'), 1)).toEqual(['2026-03-01']);
  });

  test('when counts are summarised, then every day shows (zero when idle) and the top commands are ordered with ties by name', () => {
    const period = ['2026-02-27', '2026-02-28', '2026-03-01'];
    const report = summariseUsage(
      period,
      [
        { date: '2026-02-26', command: 'old', count: 50 },
        { date: '2026-02-27', command: 'test', count: 2 },
        { date: '2026-02-27', command: 'hero', count: 1, kind: 'built-in' },
        { date: '2026-03-01', command: 'hero', count: 1, kind: 'built-in' },
        { date: '2026-03-01', command: 'attack', count: 2, kind: 'game' },
      ],
      2,
    );
    expect(report).toEqual({
      days: [
        { date: '2026-02-27', executions: 3 },
        { date: '2026-02-28', executions: 0 },
        { date: '2026-03-01', executions: 3 },
      ],
      topCommands: [
        { command: 'attack', executions: 2 },
        { command: 'hero', executions: 2 },
      ],
      byKind: { custom: 2, builtIn: 2, game: 2 },
    });
  });

  test('when an event id is not a plain token, then it is remembered under a hash (a safe field name)', () => {
    expect(seenKeyOf('0b6a4c1e-7d0e-4b7e-9a51-3f7b8d7c2a10')).toBe('0b6a4c1e-7d0e-4b7e-9a51-3f7b8d7c2a10');
    expect(seenKeyOf('a.b$c')).toMatch(/^h_[0-9a-f]{64}$/);
    expect(seenKeyOf('a.b$c')).not.toBe(seenKeyOf('a.b$d'));
  });
});

describe('auth admin figures', () => {
  let auth: TestAuth;
  let adminToken: string;
  const deadLetters: DeadLetter[] = [];
  beforeEach(async () => {
    // a store of its own for each test: the figures count everything in it
    auth = await startAuthForTest();
    ({ token: adminToken } = await auth.seedAdmin());
    deadLetters.length = 0;
    await auth.bus.subscribeDeadLetters('auth', async (deadLetter) => {
      deadLetters.push(deadLetter);
    });
  });
  afterEach(async () => {
    await auth.close();
    expect(deadLetters).toEqual([]);
  });

  const get = (path: string) => auth.request('GET', path, { token: adminToken });

  const executed = (
    command: string,
    executedAt: Date,
    eventId = randomUUID(),
    owner = 'user-1',
    kind = CommandKind.UNSPECIFIED,
  ) =>
    auth.bus.publish('command.executed', owner, {
      kind,
      eventId,
      occurredAt: timestampFromDate(executedAt),
      ownerUserId: owner,
      broadcasterUserId: '4377088',
      command,
      invokedByUsername: 'viewer_alice',
      invokedByUserId: '1001',
      messageId: randomUUID(),
      response: 'hi',
      executedAt: timestampFromDate(executedAt),
    });

  describe('GET /api/admin/stats', () => {
    test('when users, commands and audit entries exist, then the figures count them', async () => {
      const streamer = await auth.seedUser();
      const other = await auth.seedUser();
      await auth.seedUser({ isActive: false });
      for (const [user, command] of [
        [streamer, 'hello'],
        [streamer, 'bye'],
        [other, 'hello'],
      ] as const) {
        await auth.bus.publish('command.changed', user._id, {
          eventId: randomUUID(),
          occurredAt: timestampFromDate(dayAt(today, '10:00:00')),
          userId: user._id,
          kind: ChangeKind.ADDED,
          command,
          response: 'hi',
        });
      }
      const deactivated = await auth.request('PATCH', `/api/admin/users/${other._id}/status`, {
        token: adminToken,
        body: { isActive: false },
      });
      expect(deactivated.status).toBe(200);

      await eventually(async () => {
        const response = await get('/api/admin/stats');
        expect(response.body).toEqual({
          success: true,
          data: {
            // the admin, two streamers and the inactive one; `other` is now inactive too
            totalUsers: 4,
            activeUsers: 2,
            inactiveUsers: 2,
            totalCommands: 3,
            totalAuditLogs: 1,
          },
        });
      });
    });

    test('when a command is removed, then the total follows', async () => {
      const streamer = await auth.seedUser();
      const change = (kind: ChangeKind, second: number) =>
        auth.bus.publish('command.changed', streamer._id, {
          eventId: randomUUID(),
          occurredAt: timestampFromDate(new Date(dayAt(today, '10:00:00').getTime() + second * 1000)),
          userId: streamer._id,
          kind,
          command: 'hello',
          response: 'hi',
        });
      await change(ChangeKind.ADDED, 1);
      await eventually(async () => expect((await get('/api/admin/stats')).body.data.totalCommands).toBe(1));
      await change(ChangeKind.REMOVED, 2);
      await eventually(async () => expect((await get('/api/admin/stats')).body.data.totalCommands).toBe(0));
    });

    test('when a USER asks, then 403 and no figures', async () => {
      const user = await auth.seedUser();
      const response = await auth.request('GET', '/api/admin/stats', { token: auth.tokenFor(user) });
      expectError(response, 403, 'Administrator access required');
      expect(response.body.data).toBeUndefined();
    });

    test('when the query has fields, then 400', async () => {
      expect((await get('/api/admin/stats?x=1')).status).toBe(400);
    });
  });

  describe('GET /api/admin/analytics', () => {
    test('when commands ran over the last days, then executions per day and the top commands cover all streamers', async () => {
      await executed('test', dayAt(today));
      await executed('TEST', dayAt(today), randomUUID(), 'user-2');
      await executed('hero', dayAt('2026-02-27'), randomUUID(), 'user-1', CommandKind.BUILT_IN);
      await executed('test', dayAt('2026-02-16', '00:00:00'));
      // 14 days end today: 2026-02-15 is outside
      await executed('old', dayAt('2026-02-15', '23:59:59'));

      const expectedDays = daysEndingAt(dayAt(today), 14).map((date) => ({
        date,
        executions: ({ '2026-03-01': 2, '2026-02-27': 1, '2026-02-16': 1 } as Record<string, number>)[date] ?? 0,
      }));
      await eventually(async () => {
        const response = await get('/api/admin/analytics?days=14');
        expect(response.body).toEqual({
          success: true,
          data: {
            days: expectedDays,
            topCommands: [
              { command: 'test', executions: 3 },
              { command: 'hero', executions: 1 },
            ],
            byKind: { custom: 3, builtIn: 1, game: 0 },
          },
        });
      });
      const defaulted = await get('/api/admin/analytics');
      expect(defaulted.body.data.days).toHaveLength(14);
      const longer = await get('/api/admin/analytics?days=30');
      expect(longer.body.data.topCommands).toContainEqual({ command: 'old', executions: 1 });
    });

    test('when the same event is delivered again, then it is counted once', async () => {
      const eventId = randomUUID();
      await executed('dice', dayAt(today), eventId);
      await executed('dice', dayAt(today), eventId);
      await executed('dice', dayAt(today));
      await eventually(async () =>
        expect((await get('/api/admin/analytics?days=1')).body.data).toEqual({
          days: [{ date: today, executions: 2 }],
          topCommands: [{ command: 'dice', executions: 2 }],
          byKind: { custom: 2, builtIn: 0, game: 0 },
        }),
      );
      await executed('dice', dayAt(today), eventId);
      await settle();
      expect((await get('/api/admin/analytics?days=1')).body.data.topCommands).toEqual([
        { command: 'dice', executions: 2 },
      ]);
    });

    test('when many executions of one command arrive at once, then none is lost', async () => {
      await Promise.all(
        Array.from({ length: 25 }, (_, index) => executed('raid', dayAt(today), randomUUID(), `owner-${index}`)),
      );
      await eventually(async () =>
        expect((await get('/api/admin/analytics?days=1')).body.data.topCommands).toEqual([
          { command: 'raid', executions: 25 },
        ]),
      );
    });

    test('when more than 10 commands ran, then only the top 10 are listed', async () => {
      for (let index = 0; index < 12; index += 1) {
        for (let times = 0; times <= index; times += 1) await executed(`cmd${index}`, dayAt(today));
      }
      await eventually(async () => {
        const { topCommands } = (await get('/api/admin/analytics?days=1')).body.data;
        expect(topCommands.map((entry: { command: string }) => entry.command)).toEqual([
          'cmd11',
          'cmd10',
          'cmd9',
          'cmd8',
          'cmd7',
          'cmd6',
          'cmd5',
          'cmd4',
          'cmd3',
          'cmd2',
        ]);
      });
    });

    test('when a message has no event id or no command, then it is dropped without a retry', async () => {
      await auth.bus.publish('command.executed', 'x', {
        command: 'ghost',
        executedAt: timestampFromDate(dayAt(today)),
      });
      await executed('', dayAt(today));
      await settle(200);
      expect((await get('/api/admin/analytics?days=1')).body.data.topCommands).toEqual([]);
    });

    test.each(['0', '91', 'two', '1.5'])('when days is %s, then 400 naming the range', async (days) => {
      expectError(await get(`/api/admin/analytics?days=${days}`), 400, 'Days must be a whole number from 1 to 90');
    });

    test('when a USER asks, then 403', async () => {
      const user = await auth.seedUser();
      expectError(
        await auth.request('GET', '/api/admin/analytics', { token: auth.tokenFor(user) }),
        403,
        'Administrator access required',
      );
    });
  });
});

describe('the redelivery window the service is given', () => {
  test('when a counted command.executed comes again within redeliveryWindowSeconds, then it is refused; after it, it counts again', async () => {
    const auth = await startAuthForTest({ redeliveryWindowSeconds: 60 });
    try {
      const { token } = await auth.seedAdmin();
      const eventId = randomUUID();
      const executedAgain = () =>
        auth.bus.publish('command.executed', 'user-1', {
          eventId,
          ownerUserId: 'user-1',
          broadcasterUserId: '4377088',
          command: 'dice',
          executedAt: timestampFromDate(dayAt(today)),
        });
      const diceCount = async () =>
        (await auth.request('GET', '/api/admin/analytics?days=1', { token })).body.data.topCommands;

      await executedAgain();
      await eventually(async () => expect(await diceCount()).toEqual([{ command: 'dice', executions: 1 }]));
      await auth.restart(); // the stop flushes: counted, its seen key in the counted set

      auth.clock.advance(59_000);
      await executedAgain();
      await settle(200);
      expect(await diceCount()).toEqual([{ command: 'dice', executions: 1 }]);

      auth.clock.advance(2_000);
      await executedAgain();
      await eventually(async () => expect(await diceCount()).toEqual([{ command: 'dice', executions: 2 }]));
    } finally {
      await auth.close();
    }
  });
});
