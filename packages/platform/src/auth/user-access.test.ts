import { UserChangeKind, UserRole } from '@kickstand/proto';
import { createFakeClock } from '../testing/fake-clock';
import { eventually } from '../testing/eventually';
import { createTestPlatform, type TestPlatform } from '../testing/test-platform';
import type { Identity } from './tokens';
import { createUserAccess } from './user-access';

const bob: Identity = { userId: 'u-bob', username: 'bob', role: 'USER' };
const admin: Identity = { userId: 'u-root', username: 'root', role: 'SUPER_ADMIN' };

describe("the platform's token check with the user-access read model", () => {
  let platform: TestPlatform;
  const clock = createFakeClock(new Date('2026-06-01T12:00:00Z'));
  let eventCount = 0;
  const publish = (userId: string, kind: UserChangeKind, extra: { role?: UserRole; tokenVersion?: number } = {}) =>
    platform.bus.publish('user.changed', userId, {
      eventId: `e-${++eventCount}`,
      userId,
      kind,
      role: extra.role ?? UserRole.USER,
      isActive: kind !== UserChangeKind.DEACTIVATED,
      tokenVersion: extra.tokenVersion ?? 0,
    });

  beforeEach(async () => {
    platform = await createTestPlatform('commands', { clock });
  });
  afterEach(() => platform.close());

  test('when user.changed says the user was deactivated, then their token is refused with 401, and accepted again once activated', async () => {
    const token = platform.signToken(bob);
    expect(platform.tokens.verify(token)).toEqual(bob);

    await publish('u-bob', UserChangeKind.DEACTIVATED);
    await eventually(() =>
      expect(() => platform.tokens.verify(token)).toThrow(
        expect.objectContaining({ status: 401, message: 'Your account has been deactivated' }),
      ),
    );

    await publish('u-bob', UserChangeKind.ACTIVATED);
    await eventually(() => expect(platform.tokens.verify(token)).toEqual(bob));
  });

  test('when the user was deleted, then their token is refused, even after a replayed CREATED', async () => {
    await publish('u-bob', UserChangeKind.DELETED);
    await publish('u-bob', UserChangeKind.CREATED);
    await publish('u-bob', UserChangeKind.SIGNED_OUT, { tokenVersion: 1 });
    // one key's messages are handled in order: once the last is stored, all three were applied
    const stored = platform.store.collection<{ _id: string; tokenVersion: number }>('user-access');
    await eventually(async () => expect((await stored.findOne({ _id: 'u-bob' }))?.tokenVersion).toBe(1));
    expect(() => platform.tokens.verify(platform.signToken(bob, 1))).toThrow(
      expect.objectContaining({ status: 401, message: 'Your account has been deactivated' }),
    );
  });

  test('when the user signed out (token version 1), then a token of version 0 is refused and one of version 1 accepted', async () => {
    const before = platform.signToken(bob);
    await publish('u-bob', UserChangeKind.SIGNED_OUT, { tokenVersion: 1 });
    await eventually(() =>
      expect(() => platform.tokens.verify(before)).toThrow(
        expect.objectContaining({ status: 401, message: 'Your session has ended: please sign in again' }),
      ),
    );
    expect(platform.tokens.verify(platform.signToken(bob, 1))).toEqual(bob);
  });

  test('when a later event arrives with an older token version, then the version does not go back', async () => {
    await publish('u-bob', UserChangeKind.DEACTIVATED, { tokenVersion: 2 });
    await publish('u-bob', UserChangeKind.ACTIVATED, { tokenVersion: 1 });
    await eventually(() => expect(platform.tokens.verify(platform.signToken(bob, 2))).toEqual(bob));
    expect(() => platform.tokens.verify(platform.signToken(bob, 1))).toThrow(
      expect.objectContaining({ status: 401, message: 'Your session has ended: please sign in again' }),
    );
  });

  test('when the role changed, then a token naming the old role is refused', async () => {
    const adminToken = platform.signToken(admin);
    expect(platform.tokens.verify(adminToken)).toEqual(admin);
    await publish('u-root', UserChangeKind.ACTIVATED, { role: UserRole.USER });
    await eventually(() =>
      expect(() => platform.tokens.verify(adminToken)).toThrow(
        expect.objectContaining({ status: 401, message: 'Your session has ended: please sign in again' }),
      ),
    );
    expect(platform.tokens.verify(platform.signToken({ ...admin, role: 'USER' }))).toEqual({ ...admin, role: 'USER' });
  });

  test('when the read model is loaded again from the store (a restart), then what the events said still holds', async () => {
    await publish('u-bob', UserChangeKind.DEACTIVATED);
    await publish('u-root', UserChangeKind.SIGNED_OUT, { role: UserRole.SUPER_ADMIN, tokenVersion: 3 });
    // the store write follows the in-memory update: read the store until both are there
    await eventually(async () => {
      const restarted = createUserAccess(platform.store);
      await restarted.load();
      expect(restarted.isShutOut('u-bob')).toBe(true);
      expect(() => restarted.check({ identity: admin, tokenVersion: 2 })).toThrow(
        expect.objectContaining({ status: 401 }),
      );
      expect(() => restarted.check({ identity: admin, tokenVersion: 3 })).not.toThrow();
    });
  });

  test('when the store holds a deactivated user from the older gateway read model, then they stay refused', async () => {
    await platform.store
      .collection<{ _id: string; deactivatedAt: Date }>('deactivated-users')
      .insertOne({ _id: 'u-bob', deactivatedAt: clock.now() });
    const access = createUserAccess(platform.store);
    await access.load();
    expect(access.isShutOut('u-bob')).toBe(true);
  });

  test('when a user was never mentioned by user.changed, then the token alone decides', () => {
    const access = createUserAccess(platform.store);
    expect(access.isShutOut('u-new')).toBe(false);
    expect(() => access.check({ identity: { ...bob, userId: 'u-new' }, tokenVersion: 0 })).not.toThrow();
  });
});
