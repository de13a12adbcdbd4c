import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { writePrivateFile } from '@kickstand/platform/files';
import type { Logger } from '@kickstand/platform/log';
import { generatePassword } from './passwords';
import { generatedAdmin, type Users } from './users';

export interface SuperAdminSettings {
  email: string;
  password: string;
  username: string;
}

export interface SuperAdminBootstrap {
  /** From SUPER_ADMIN_EMAIL / SUPER_ADMIN_PASSWORD / SUPER_ADMIN_USERNAME. */
  superAdmin?: SuperAdminSettings;
  /** Single-machine mode: where the generated super administrator's sign-in is saved (mode 0600). */
  generatedAdminFile?: string;
}

/**
 * Makes sure a super administrator exists from the first start:
 * - with settings, that user is created (or, if the email exists, made an active super
 *   administrator; its password is kept);
 * - else, with a file (single-machine mode) and no super administrator yet, one is made with a
 *   random password, which is logged once and saved in the file;
 * - else a warning says how to make one.
 */
export async function ensureSuperAdmin(
  { users, log }: { users: Users; log: Logger },
  { superAdmin, generatedAdminFile }: SuperAdminBootstrap,
): Promise<void> {
  if (superAdmin) {
    const result = await users.createOrPromoteAdmin(superAdmin);
    const fields = { userId: result.user.id, email: result.user.email, username: result.user.username };
    if (result.outcome === 'created') {
      log.info(fields, 'super administrator created from SUPER_ADMIN_EMAIL');
    } else if (result.outcome === 'promoted') {
      log.warn(fields, 'the SUPER_ADMIN_EMAIL user was made an active super administrator (its password was kept)');
    } else {
      log.debug(fields, 'super administrator present');
    }
    return;
  }
  if ((await users.countSuperAdmins()) > 0) return;
  if (!generatedAdminFile) {
    log.warn(
      'no super administrator exists: set SUPER_ADMIN_EMAIL and SUPER_ADMIN_PASSWORD, or run `npm run admin:create -- --email … --username …`',
    );
    return;
  }
  await generateSuperAdmin({ users, log }, generatedAdminFile);
}

async function generateSuperAdmin({ users, log }: { users: Users; log: Logger }, file: string): Promise<void> {
  const username = (await users.usernameExists(generatedAdmin.username))
    ? `${generatedAdmin.username}_${randomBytes(3).toString('hex')}`
    : generatedAdmin.username;
  const password = generatePassword();
  // the file first: a user whose password was never shown to anyone would be of no use
  await writeSignInFile(file, generatedAdmin.email, password);
  const result = await users.createOrPromoteAdmin({ email: generatedAdmin.email, username, password });
  if (result.outcome !== 'created') {
    await rm(file, { force: true });
    log.warn(
      { email: generatedAdmin.email },
      'first start: the existing user with this email was made super administrator (its password was kept)',
    );
    return;
  }
  log.warn(
    { email: generatedAdmin.email, username, file },
    `first start: created the super administrator ${generatedAdmin.email} (username ${username}) ` +
      `with the password ${password} — it is shown this once and saved in ${file}`,
  );
}

async function writeSignInFile(file: string, email: string, password: string): Promise<void> {
  const text = [
    '# Kickstand super administrator, created at the first start. Keep this file private.',
    `email: ${email}`,
    `password: ${password}`,
    '',
  ].join('\n');
  await writePrivateFile(file, text);
}
