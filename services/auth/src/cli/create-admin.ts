import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { systemClock } from '@kickstand/platform/clock';
import { ConfigError, loadConfig, platformConfigSchema } from '@kickstand/platform/config';
import { AppError } from '@kickstand/platform/errors';
import { runningPid } from '@kickstand/platform/lifecycle';
import { createSilentLogger } from '@kickstand/platform/log';
import { createEmbeddedStore, createMongoStore, type Store } from '@kickstand/platform/store';
import { createAuditLog } from '../audit-log';
import type { UserChangePublisher } from '../events';
import { createPasswordHasher, passwordProblem } from '../passwords';
import { createAuthRepository } from '../repository';
import { createUsers, usernameLength, usernamePattern } from '../users';

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const usage = [
  'Usage: npm run admin:create -- --email <email> --username <username> [--password <password>]',
  '',
  'Creates a super administrator, or makes the user with that email one (and active; its password is kept).',
  'Without --password a random strong password is made and printed once.',
  "Opens auth's store directly: DATA_DIR/auth (embedded, the default) or MONGO_URL.",
].join('\n');

/** Where single-machine mode writes its process id while it runs (and owns the embedded store). */

/** The CLI's own audit actor, so the log tells a command-line creation from the first-start one. */
const cliActor = { id: 'system', username: 'admin:create' };

const cliConfigSchema = platformConfigSchema.pick({ DATA_DIR: true, MONGO_URL: true, MONGO_DB_PREFIX: true });

// the changes stay in the outbox of the user document: auth publishes them when it runs
const publishLater: Pick<UserChangePublisher, 'flush'> = { flush: async () => undefined };

function argumentProblem(values: { email?: string; username?: string; password?: string }): string | undefined {
  if (!values.email) return '--email is required';
  if (!z.regexes.email.test(values.email)) return '--email: Please enter a valid email address';
  if (!values.username) return '--username is required';
  if (values.username.length < usernameLength.min || values.username.length > usernameLength.max) {
    return `--username: Username must be ${usernameLength.min}-${usernameLength.max} characters long`;
  }
  if (!usernamePattern.test(values.username)) {
    return '--username: Username can only contain letters, numbers and underscores';
  }
  if (values.password !== undefined) {
    const problem = passwordProblem(values.password);
    if (problem) return `--password: ${problem}`;
  }
  return undefined;
}

/** `npm run admin:create`: returns the exit code. */
export async function runCreateAdmin(argv: string[], env: NodeJS.ProcessEnv, io: CliOutput): Promise<number> {
  let values: { email?: string; username?: string; password?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        username: { type: 'string' },
        password: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    io.out(usage);
    return 0;
  }
  const problem = argumentProblem(values);
  if (problem || !values.email || !values.username) {
    io.err(`${problem}\n\n${usage}`);
    return 2;
  }

  let config: z.infer<typeof cliConfigSchema>;
  try {
    config = loadConfig(cliConfigSchema, env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }

  let store: Store;
  if (config.MONGO_URL) {
    store = await createMongoStore({ url: config.MONGO_URL, dbName: `${config.MONGO_DB_PREFIX}auth` });
  } else {
    const dataDir = path.resolve(config.DATA_DIR);
    const pid = await runningPid(dataDir);
    if (pid !== undefined) {
      io.err(
        `Kickstand is running (process ${pid}) and owns the embedded store in ${dataDir}; ` +
          'two processes must not write it at once.\nStop Kickstand first (Ctrl-C where it runs), then run this command again.',
      );
      return 1;
    }
    store = await createEmbeddedStore({ dir: path.join(dataDir, 'auth') });
  }

  try {
    const repo = createAuthRepository(store);
    await repo.createIndexes();
    const log = createSilentLogger();
    const users = createUsers({
      repo,
      passwords: createPasswordHasher(),
      clock: systemClock,
      log,
      audit: createAuditLog({ repo, log }),
      changes: publishLater,
    });
    const input = { email: values.email, username: values.username, password: values.password };
    const result = await users.createOrPromoteAdmin(input, cliActor);
    const who = `${result.user.username} (${result.user.email})`;
    if (result.outcome === 'created') {
      io.out(`Created the super administrator ${who}.`);
      if (result.isPasswordGenerated) {
        io.out(`Password: ${result.password}`);
        io.out('It is shown only this once: keep it somewhere safe.');
      }
    } else {
      io.out(
        result.outcome === 'promoted'
          ? `${who} is now an active super administrator.`
          : `${who} is already an active super administrator; nothing changed.`,
      );
      io.out(
        values.password === undefined
          ? 'Its password was kept.'
          : 'Its password was kept: --password only applies to a new user.',
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}

if (require.main === module) {
  runCreateAdmin(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error('admin:create failed:', error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
