import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createTempDirs, eventually } from '@kickstand/platform/testing';
import { UserChangeKind, UserRole } from '@kickstand/proto';
import { passwordProblem } from './passwords';
import { captureLog, newAccount, startAuthForTest, type TestAuth } from './testing/test-utils';

const login = (auth: TestAuth, email: string, password: string) =>
  auth.request('POST', '/api/platform/login', { body: { email, password } });

const dirs = createTempDirs('auth-admin');

describe('super administrator at start', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await dirs.make();
  });
  afterEach(() => dirs.removeAll());

  describe('from SUPER_ADMIN_EMAIL / SUPER_ADMIN_PASSWORD', () => {
    const superAdmin = { email: 'Root@Example.com', password: 'Adm1n!Secret', username: 'rootadmin' };

    test('when none exists, then it is created, can sign in, is announced and audited', async () => {
      const auth = await startAuthForTest({ superAdmin });
      try {
        const response = await login(auth, 'root@example.com', superAdmin.password);
        expect(response.status).toBe(200);
        expect(response.body.data.user).toMatchObject({
          username: 'rootadmin',
          email: 'Root@Example.com',
          role: 'SUPER_ADMIN',
          isActive: true,
        });
        expect(auth.recorded.published('user.changed')).toEqual([
          expect.objectContaining({ kind: UserChangeKind.CREATED, role: UserRole.SUPER_ADMIN, username: 'rootadmin' }),
        ]);
        const audit = await auth.request('GET', '/api/admin/audit', { token: response.body.data.token });
        expect(audit.body.data.logs).toEqual([
          expect.objectContaining({
            action: 'admin.created',
            actor: { id: 'system', username: 'system' },
            target: { type: 'user', id: response.body.data.user.id, username: 'rootadmin' },
          }),
        ]);
      } finally {
        await auth.close();
      }
    });

    test('when it exists already, then a restart with another password changes nothing', async () => {
      const auth = await startAuthForTest({ superAdmin });
      try {
        await auth.restart({ superAdmin: { ...superAdmin, password: 'Other!Passw0rd' } });
        expect((await login(auth, superAdmin.email, superAdmin.password)).status).toBe(200);
        expect((await login(auth, superAdmin.email, 'Other!Passw0rd')).status).toBe(401);
        expect(await auth.repo.users.countSuperAdmins()).toBe(1);
        expect(auth.recorded.published('user.changed')).toHaveLength(1);
      } finally {
        await auth.close();
      }
    });

    test('when a deactivated USER has that email, then they become an active super admin and keep their password', async () => {
      const auth = await startAuthForTest();
      try {
        const account = await auth.register({ email: 'promote.me@example.com' });
        await auth.repo.users.setActive(account.user.id, false, {
          eventId: 'e1',
          kind: 'DEACTIVATED',
          occurredAt: auth.clock.now(),
          username: account.username,
          role: 'USER',
          isActive: false,
        });
        await auth.restart({
          superAdmin: { email: 'PROMOTE.ME@example.com', password: 'Ignored!Passw0rd', username: 'x_admin' },
        });

        const response = await login(auth, account.email, account.password);
        expect(response.status).toBe(200);
        expect(response.body.data.user).toMatchObject({
          role: 'SUPER_ADMIN',
          isActive: true,
          username: account.username,
        });
        const changes = auth.recorded.published('user.changed').filter((m) => m.userId === account.user.id);
        expect(changes.at(-1)).toMatchObject({
          kind: UserChangeKind.ACTIVATED,
          role: UserRole.SUPER_ADMIN,
          isActive: true,
        });
        const audit = await auth.request('GET', '/api/admin/audit?action=admin.promoted', {
          token: response.body.data.token,
        });
        expect(audit.body.data.logs).toHaveLength(1);
      } finally {
        await auth.close();
      }
    });

    test('when a signed-in USER is promoted, then their token with the old role is refused and a new sign-in carries the new role', async () => {
      const auth = await startAuthForTest();
      try {
        const account = await auth.register({ email: 'rising@example.com' });
        expect((await auth.request('GET', '/api/platform/profile', { token: account.token })).status).toBe(200);

        await auth.restart({
          superAdmin: { email: 'rising@example.com', password: 'Ignored!Passw0rd', username: 'x_admin' },
        });

        await eventually(async () =>
          expect(await auth.request('GET', '/api/platform/profile', { token: account.token })).toMatchObject({
            status: 401,
            body: { success: false, error: 'Your session has ended: please sign in again' },
          }),
        );
        const fresh = (await login(auth, account.email, account.password)).body.data.token;
        expect((await auth.request('GET', '/api/admin/stats', { token: fresh })).status).toBe(200);
      } finally {
        await auth.close();
      }
    });

    test('when its username belongs to another user, then the start fails saying so', async () => {
      const auth = await startAuthForTest();
      try {
        await auth.register({ username: 'taken_name' });
        await expect(
          auth.restart({
            superAdmin: { email: 'new.root@example.com', password: 'Adm1n!Secret', username: 'Taken_Name' },
          }),
        ).rejects.toThrow('Username is already taken');
      } finally {
        await auth.close();
      }
    });
  });

  describe('generated (single-machine mode)', () => {
    test('when no super admin exists, then one is made with a strong password, saved once in a 0600 file and logged once', async () => {
      const file = path.join(tmp, 'nested', 'dir', 'admin.txt');
      const capture = captureLog();
      const auth = await startAuthForTest({ generatedAdminFile: file, log: capture.log });
      try {
        const text = await readFile(file, 'utf8');
        expect((await stat(file)).mode & 0o777).toBe(0o600);
        const email = /^email: (.+)$/m.exec(text)?.[1];
        const password = /^password: (.+)$/m.exec(text)?.[1] ?? '';
        expect(email).toBe('admin@kickstand.local');
        expect(passwordProblem(password)).toBeUndefined();
        expect(password.length).toBeGreaterThanOrEqual(16);

        const response = await login(auth, 'admin@kickstand.local', password);
        expect(response.status).toBe(200);
        expect(response.body.data.user).toMatchObject({ username: 'admin', role: 'SUPER_ADMIN' });
        expect(capture.messages().filter((message) => message.includes(password))).toEqual([
          expect.stringContaining('first start'),
        ]);

        await auth.restart();
        expect(await readFile(file, 'utf8')).toBe(text);
        expect(await auth.repo.users.countSuperAdmins()).toBe(1);
        expect(capture.messages().filter((message) => message.includes(password))).toHaveLength(1);
      } finally {
        await auth.close();
      }
    });

    test('when a super admin exists already, then no file is written', async () => {
      const file = path.join(tmp, 'admin.txt');
      const auth = await startAuthForTest({
        superAdmin: { email: 'root@example.com', password: 'Adm1n!Secret', username: 'root' },
      });
      try {
        await auth.restart({ superAdmin: undefined, generatedAdminFile: file });
        await expect(stat(file)).rejects.toThrow(/ENOENT/);
        expect(await auth.repo.users.countSuperAdmins()).toBe(1);
      } finally {
        await auth.close();
      }
    });

    test('when a streamer already took the username admin, then the generated admin gets another one', async () => {
      const auth = await startAuthForTest();
      try {
        await auth.register({ ...newAccount(), username: 'Admin' });
        const file = path.join(tmp, 'admin.txt');
        await auth.restart({ generatedAdminFile: file });
        const password = /^password: (.+)$/m.exec(await readFile(file, 'utf8'))?.[1] ?? '';
        const response = await login(auth, 'admin@kickstand.local', password);
        expect(response.body.data.user.username).toMatch(/^admin_[0-9a-f]{6}$/);
      } finally {
        await auth.close();
      }
    });
  });

  describe('distributed mode without settings', () => {
    test('when no super admin exists, then a warning says how to make one', async () => {
      const capture = captureLog();
      const auth = await startAuthForTest({ log: capture.log });
      try {
        expect(capture.messages()).toContainEqual(expect.stringContaining('no super administrator exists'));
        expect(await auth.repo.users.countSuperAdmins()).toBe(0);
      } finally {
        await auth.close();
      }
    });
  });
});
