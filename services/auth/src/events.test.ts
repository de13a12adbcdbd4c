import { randomUUID } from 'node:crypto';
import type { DeadLetter, KickstandBus } from '@kickstand/platform/bus';
import {
  BotConnectionStatus,
  ChangeKind,
  KickAccountChangeKind,
  UserChangeKind,
  timestampFromDate,
} from '@kickstand/proto';
import { eventually, settle, startAuthForTest, type TestAuth } from './testing/test-utils';
import type { UserDoc } from './repository';

const t0 = new Date('2026-02-10T08:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('auth read model and audit log from the bus', () => {
  let auth: TestAuth;
  let adminToken: string;
  const deadLetters: DeadLetter[] = [];
  beforeAll(async () => {
    auth = await startAuthForTest();
    ({ token: adminToken } = await auth.seedAdmin());
    await auth.bus.subscribeDeadLetters('auth', async (deadLetter) => {
      deadLetters.push(deadLetter);
    });
  });
  afterAll(() => auth.close());
  afterEach(() => {
    // no message ever failed every attempt: bad or unknown ones are dropped, not retried to death
    expect(deadLetters).toEqual([]);
  });

  /** The user as the admin list shows it. */
  const listed = async (user: UserDoc) => {
    const response = await auth.request('GET', `/api/admin/users?search=${user.username}`, { token: adminToken });
    expect(response.status).toBe(200);
    return response.body.data.users[0];
  };

  const kickAccount = (
    user: UserDoc,
    kind: KickAccountChangeKind,
    occurredAt: Date,
    fields: { kickUsername?: string; kickEmail?: string; profilePicture?: string; linkedAt?: Date } = {},
  ) =>
    auth.bus.publish('kick.account', user._id, {
      eventId: randomUUID(),
      occurredAt: timestampFromDate(occurredAt),
      userId: user._id,
      kind,
      kickUserId: '4377088',
      kickUsername: fields.kickUsername ?? 'streamer_one',
      kickEmail: fields.kickEmail ?? 'one@kick.example',
      profilePicture: fields.profilePicture ?? 'https://files.kick.example/one.png',
      linkedAt: timestampFromDate(fields.linkedAt ?? occurredAt),
    });

  const botStatus = (user: UserDoc, botEnabled: boolean, occurredAt: Date) =>
    auth.bus.publish('bot.status', user._id, {
      eventId: randomUUID(),
      occurredAt: timestampFromDate(occurredAt),
      userId: user._id,
      broadcasterUserId: '4377088',
      isRunning: false,
      isConnected: false,
      status: BotConnectionStatus.DISCONNECTED,
      commandCount: 0,
      botEnabled,
    });

  const commandChanged = (
    user: UserDoc,
    kind: ChangeKind,
    command: string,
    occurredAt: Date,
    eventId = randomUUID(),
    previousCommand = '',
  ) =>
    auth.bus.publish('command.changed', user._id, {
      eventId,
      occurredAt: timestampFromDate(occurredAt),
      userId: user._id,
      kind,
      command,
      response: 'hi',
      previousCommand,
    });

  describe('kick.account', () => {
    test('when an account is linked, then the user shows it (and hasKick finds them); unlinked, it is null again', async () => {
      const user = await auth.seedUser();
      await kickAccount(user, KickAccountChangeKind.LINKED, at(10), { linkedAt: at(5) });

      await eventually(async () =>
        expect((await listed(user)).kickAccount).toEqual({
          kickUsername: 'streamer_one',
          kickEmail: 'one@kick.example',
          profilePicture: 'https://files.kick.example/one.png',
          createdAt: at(5).toISOString(),
        }),
      );
      const withKick = await auth.request('GET', `/api/admin/users?search=${user.username}&hasKick=true`, {
        token: adminToken,
      });
      expect(withKick.body.data.users).toHaveLength(1);

      await kickAccount(user, KickAccountChangeKind.UNLINKED, at(20));
      await eventually(async () => expect((await listed(user)).kickAccount).toBeNull());
    });

    test('when Kick e-mail and picture are empty, then they show as null', async () => {
      const user = await auth.seedUser();
      await kickAccount(user, KickAccountChangeKind.LINKED, at(10), { kickEmail: '', profilePicture: '' });
      await eventually(async () =>
        expect((await listed(user)).kickAccount).toMatchObject({ kickEmail: null, profilePicture: null }),
      );
    });

    test('when the link needs renewing, then the account is kept', async () => {
      const user = await auth.seedUser();
      await kickAccount(user, KickAccountChangeKind.LINKED, at(10));
      await kickAccount(user, KickAccountChangeKind.NEEDS_RELINK, at(20));
      await eventually(async () =>
        expect((await auth.repo.users.findById(user._id))?.kickAccount?.needsRelink).toBe(true),
      );
      expect((await listed(user)).kickAccount).toMatchObject({ kickUsername: 'streamer_one' });
    });

    test('when an older LINKED arrives after a newer UNLINKED, then the account stays unlinked', async () => {
      const user = await auth.seedUser();
      await kickAccount(user, KickAccountChangeKind.LINKED, at(10));
      await eventually(async () => expect((await listed(user)).kickAccount).not.toBeNull());
      await kickAccount(user, KickAccountChangeKind.UNLINKED, at(30));
      await kickAccount(user, KickAccountChangeKind.LINKED, at(20), { kickUsername: 'late' });
      await eventually(async () => expect((await listed(user)).kickAccount).toBeNull());
      await settle();
      expect((await listed(user)).kickAccount).toBeNull();
    });

    test('when the same event is delivered twice, then the result is the same', async () => {
      const user = await auth.seedUser();
      const message = {
        eventId: randomUUID(),
        occurredAt: timestampFromDate(at(10)),
        userId: user._id,
        kind: KickAccountChangeKind.LINKED,
        kickUserId: '1',
        kickUsername: 'twice',
        linkedAt: timestampFromDate(at(10)),
      };
      await auth.bus.publish('kick.account', user._id, message);
      await auth.bus.publish('kick.account', user._id, message);
      await eventually(async () => expect((await listed(user)).kickAccount).toMatchObject({ kickUsername: 'twice' }));
    });

    test('when the user is unknown or the message is incomplete, then it is dropped without a retry', async () => {
      const ghost = { _id: `ghost-${randomUUID()}` } as UserDoc;
      await kickAccount(ghost, KickAccountChangeKind.LINKED, at(10));
      await auth.bus.publish('kick.account', 'nobody', { eventId: randomUUID(), kind: KickAccountChangeKind.LINKED });
      const user = await auth.seedUser();
      await auth.bus.publish('kick.account', user._id, {
        eventId: randomUUID(),
        userId: user._id,
        kind: KickAccountChangeKind.UNSPECIFIED,
      });
      await settle(200);
      expect((await listed(user)).kickAccount).toBeNull();
      expect(await auth.repo.users.findById(ghost._id)).toBeNull();
    });
  });

  describe('bot.status', () => {
    test('when bot-runner reports the bot disabled and enabled, then botEnabled follows; an older status is ignored', async () => {
      const user = await auth.seedUser();
      await botStatus(user, false, at(10));
      await eventually(async () => expect((await listed(user)).botEnabled).toBe(false));

      await botStatus(user, true, at(20));
      await eventually(async () => expect((await listed(user)).botEnabled).toBe(true));

      await botStatus(user, false, at(15));
      await settle();
      expect((await listed(user)).botEnabled).toBe(true);
    });

    test('when the user is unknown, then it is dropped without a retry', async () => {
      await botStatus({ _id: `ghost-${randomUUID()}` } as UserDoc, false, at(10));
      await settle();
    });
  });

  describe('command.changed', () => {
    test('when a command is renamed or edited (UPDATED), then the count stays and the new name is the one counted', async () => {
      const user = await auth.seedUser();
      await commandChanged(user, ChangeKind.ADDED, 'disc', at(1));
      await commandChanged(user, ChangeKind.ADDED, 'other', at(2));
      await commandChanged(user, ChangeKind.UPDATED, 'Discord', at(3), randomUUID(), 'disc');
      await commandChanged(user, ChangeKind.UPDATED, 'other', at(4), randomUUID(), 'other');
      await eventually(async () => expect((await listed(user))._count).toEqual({ commands: 2 }));

      await commandChanged(user, ChangeKind.REMOVED, 'discord', at(5));
      await eventually(async () => expect((await listed(user))._count).toEqual({ commands: 1 }));
    });

    test('when commands are added and removed, also delivered twice, then _count.commands counts each once', async () => {
      const user = await auth.seedUser();
      const added = randomUUID();
      await commandChanged(user, ChangeKind.ADDED, 'hello', at(1), added);
      await commandChanged(user, ChangeKind.ADDED, 'hello', at(1), added);
      await commandChanged(user, ChangeKind.ADDED, 'dota', at(2));
      // command names are unique case-insensitively
      await commandChanged(user, ChangeKind.ADDED, 'HELLO', at(3));
      await eventually(async () => expect((await listed(user))._count).toEqual({ commands: 2 }));

      const removed = randomUUID();
      await commandChanged(user, ChangeKind.REMOVED, 'dota', at(4), removed);
      await commandChanged(user, ChangeKind.REMOVED, 'dota', at(4), removed);
      await commandChanged(user, ChangeKind.REMOVED, 'never-added', at(5));
      await eventually(async () => expect((await listed(user))._count).toEqual({ commands: 1 }));
    });

    test('when an ADDED older than a REMOVED arrives late, then the command stays removed', async () => {
      const user = await auth.seedUser();
      await commandChanged(user, ChangeKind.ADDED, 'x', at(1));
      await eventually(async () => expect((await listed(user))._count.commands).toBe(1));
      await commandChanged(user, ChangeKind.REMOVED, 'x', at(10));
      await commandChanged(user, ChangeKind.ADDED, 'x', at(5));
      await eventually(async () => expect((await listed(user))._count.commands).toBe(0));
      await settle();
      expect((await listed(user))._count.commands).toBe(0);
    });

    test('when the user is unknown or the message is empty, then it is dropped without a retry', async () => {
      await commandChanged({ _id: `ghost-${randomUUID()}` } as UserDoc, ChangeKind.ADDED, 'x', at(1));
      const user = await auth.seedUser();
      await commandChanged(user, ChangeKind.ADDED, '', at(1));
      await commandChanged(user, ChangeKind.UNSPECIFIED, 'y', at(1));
      await settle(200);
      expect((await listed(user))._count.commands).toBe(0);
    });
  });

  describe('audit.recorded', () => {
    test('when another service reports an admin action, also twice, then the audit log holds it once', async () => {
      const eventId = randomUUID();
      const target = await auth.seedUser();
      const message = {
        eventId,
        occurredAt: timestampFromDate(at(42)),
        actorUserId: 'admin-1',
        actorUsername: 'boss',
        action: 'bot.disabled',
        targetType: 'user',
        targetId: target._id,
        targetUsername: target.username,
        details: { reason: 'spam' },
      };
      await auth.bus.publish('audit.recorded', target._id, message);
      await auth.bus.publish('audit.recorded', target._id, message);

      const expected = {
        id: eventId,
        action: 'bot.disabled',
        actor: { id: 'admin-1', username: 'boss' },
        target: { type: 'user', id: target._id, username: target.username },
        details: { reason: 'spam' },
        createdAt: at(42).toISOString(),
      };
      await eventually(async () => {
        const response = await auth.request('GET', '/api/admin/audit?action=bot.disabled&limit=200', {
          token: adminToken,
        });
        expect(response.body.data.logs.filter((log: { id: string }) => log.id === eventId)).toEqual([expected]);
      });
      await settle();
      const again = await auth.request('GET', '/api/admin/audit?action=bot.disabled&limit=200', { token: adminToken });
      expect(again.body.data.logs.filter((log: { id: string }) => log.id === eventId)).toHaveLength(1);
    });

    test('when a report has no event id, then it is dropped', async () => {
      await auth.bus.publish('audit.recorded', 'x', { action: 'webhook.subscribed', targetId: 'x' });
      await settle();
      const response = await auth.request('GET', '/api/admin/audit?action=webhook.subscribed', { token: adminToken });
      expect(response.body.data.logs).toEqual([]);
    });
  });
});

describe('user.changed outbox', () => {
  test('when the bus refuses user.changed, then the registration still succeeds and the event is published after a restart', async () => {
    let isBusDown = false;
    const flaky = (bus: KickstandBus): KickstandBus => ({
      ...bus,
      publish: (topic, key, message) =>
        isBusDown && topic === 'user.changed'
          ? Promise.reject(new Error('broker down'))
          : bus.publish(topic, key, message),
    });
    const auth = await startAuthForTest({ wrapBus: flaky });
    try {
      isBusDown = true;
      const account = await auth.register();
      expect(auth.recorded.published('user.changed').filter((m) => m.userId === account.user.id)).toEqual([]);
      expect((await auth.repo.users.findById(account.user.id))?.outbox).toHaveLength(1);

      isBusDown = false;
      await auth.restart();

      const published = auth.recorded.published('user.changed').filter((m) => m.userId === account.user.id);
      expect(published).toEqual([expect.objectContaining({ kind: UserChangeKind.CREATED, isActive: true })]);
      expect((await auth.repo.users.findById(account.user.id))?.outbox).toEqual([]);
    } finally {
      await auth.close();
    }
  });
});
