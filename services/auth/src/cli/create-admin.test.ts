import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEmbeddedStore, type Store } from '@kickstand/platform/store';
import { createTempDirs } from '@kickstand/platform/testing';
import { UserChangeKind, UserRole } from '@kickstand/proto';
import { startAuthForTest } from '../testing/test-utils';
import { runCreateAdmin } from './create-admin';

interface Run {
  code: number;
  out: string;
  err: string;
}

const dirs = createTempDirs('admin-cli');

describe('npm run admin:create', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await dirs.make();
  });
  afterEach(() => dirs.removeAll());

  async function run(...args: string[]): Promise<Run> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCreateAdmin(
      args,
      { DATA_DIR: dataDir },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  /** auth started over the store the command wrote. */
  async function withAuth(check: (auth: Awaited<ReturnType<typeof startAuthForTest>>) => Promise<void>) {
    const store: Store = await createEmbeddedStore({ dir: path.join(dataDir, 'auth') });
    const auth = await startAuthForTest({ store });
    try {
      await check(auth);
    } finally {
      await auth.close();
      await store.close();
    }
  }

  test('when no password is given, then a super admin is created, the random password printed once, and it signs in', async () => {
    const result = await run('--email', 'ops@example.com', '--username', 'ops_lead');

    expect(result).toEqual({ code: 0, out: expect.any(String), err: '' });
    expect(result.out).toContain('Created the super administrator ops_lead (ops@example.com).');
    const password = /^Password: (.+)$/m.exec(result.out)?.[1] ?? '';
    expect(password).not.toBe('');

    await withAuth(async (auth) => {
      const login = await auth.request('POST', '/api/platform/login', { body: { email: 'ops@example.com', password } });
      expect(login.status).toBe(200);
      expect(login.body.data.user).toMatchObject({ username: 'ops_lead', role: 'SUPER_ADMIN', isActive: true });
      // the command has no bus: auth announces the new user from the outbox when it starts
      expect(auth.recorded.published('user.changed')).toEqual([
        expect.objectContaining({ kind: UserChangeKind.CREATED, role: UserRole.SUPER_ADMIN, username: 'ops_lead' }),
      ]);
      const audit = await auth.request('GET', '/api/admin/audit', { token: login.body.data.token });
      expect(audit.body.data.logs).toEqual([
        expect.objectContaining({ action: 'admin.created', actor: { id: 'system', username: 'admin:create' } }),
      ]);
    });
  });

  test('when a password is given, then it is used and not printed', async () => {
    const result = await run('--email', 'ops@example.com', '--username', 'ops', '--password', 'Given!Passw0rd');
    expect(result.code).toBe(0);
    expect(result.out).not.toContain('Given!Passw0rd');
    await withAuth(async (auth) => {
      const login = await auth.request('POST', '/api/platform/login', {
        body: { email: 'ops@example.com', password: 'Given!Passw0rd' },
      });
      expect(login.status).toBe(200);
    });
  });

  test('when the email belongs to a user, then that user is promoted and keeps their password', async () => {
    let password = '';
    await withAuth(async (auth) => {
      ({ password } = await auth.register({ email: 'streamer@example.com', username: 'streamer' }));
    });

    const result = await run(
      '--email',
      'Streamer@Example.com',
      '--username',
      'whatever',
      '--password',
      'New!Passw0rd1',
    );

    expect(result.code).toBe(0);
    expect(result.out).toContain('streamer (streamer@example.com) is now an active super administrator.');
    expect(result.out).toContain('Its password was kept: --password only applies to a new user.');
    await withAuth(async (auth) => {
      const login = await auth.request('POST', '/api/platform/login', {
        body: { email: 'streamer@example.com', password },
      });
      expect(login.body.data.user.role).toBe('SUPER_ADMIN');
    });
    expect((await run('--email', 'streamer@example.com', '--username', 'streamer')).out).toContain(
      'is already an active super administrator; nothing changed.',
    );
  });

  test('when the username is taken by another email, then exit 1 "Username is already taken"', async () => {
    await run('--email', 'one@example.com', '--username', 'dup_name');
    expect(await run('--email', 'two@example.com', '--username', 'DUP_NAME')).toEqual({
      code: 1,
      out: '',
      err: 'Username is already taken',
    });
  });

  test.each([
    [['--username', 'ops'], '--email is required'],
    [['--email', 'nope', '--username', 'ops'], '--email: Please enter a valid email address'],
    [['--email', 'ops@example.com'], '--username is required'],
    [['--email', 'ops@example.com', '--username', 'o'], '--username: Username must be 3-25 characters long'],
    [
      ['--email', 'ops@example.com', '--username', 'ops', '--password', 'weakpass1!'],
      '--password: Password must contain at least one uppercase letter',
    ],
    [['--email', 'ops@example.com', '--username', 'ops', '--role', 'x'], "Unknown option '--role'"],
  ])('when the arguments are %j, then exit 2 with "%s" and the usage', async (args, error) => {
    const result = await run(...args);
    expect(result.code).toBe(2);
    expect(result.err).toContain(error);
    expect(result.err).toContain('Usage: npm run admin:create');
  });

  test('when Kickstand is running on this DATA_DIR, then it refuses and says to stop Kickstand first', async () => {
    // this test process stands in for a running Kickstand: its parent is alive
    await writeFile(path.join(dataDir, '.kickstand.pid'), `${process.ppid}\n`);

    const result = await run('--email', 'ops@example.com', '--username', 'ops');

    expect(result.code).toBe(1);
    expect(result.err).toContain(`Kickstand is running (process ${process.ppid})`);
    expect(result.err).toContain('Stop Kickstand first');
    await expect(stat(path.join(dataDir, 'auth'))).rejects.toThrow(/ENOENT/);
  });

  test('when the pid file is left over from a stopped Kickstand, then the command goes ahead', async () => {
    await writeFile(path.join(dataDir, '.kickstand.pid'), '2147483646\n');
    expect((await run('--email', 'ops@example.com', '--username', 'ops')).code).toBe(0);
  });
});
