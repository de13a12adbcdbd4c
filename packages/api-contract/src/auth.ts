import { z } from 'zod';
import { dataReply, isoDateTime, messageReply } from './common';

// Spec §5 and §7: sign-up, sign-in and the streamer's profile (auth).

/** The answers' texts, fixed by the spec (§7) and the issues. */
export const authMessages = {
  invalidCredentials: 'Invalid email or password',
  deactivated: 'Your account has been deactivated',
  emailTaken: 'Email is already registered',
  usernameTaken: 'Username is already taken',
  userNotFound: 'User not found',
  superAdminProtected: 'Super admin accounts cannot be deactivated',
  userActivated: 'User activated successfully',
  userDeactivated: 'User deactivated successfully',
  roleChanged: 'Role changed successfully',
  lastSuperAdmin: 'The last super admin cannot become a user',
  roleChangedMeanwhile: 'The role was changed meanwhile. Reload and try again.',
  registered: 'Registration successful',
  loggedIn: 'Login successful',
  invalidEmail: 'Please enter a valid email address',
} as const;

export const roles = ['USER', 'SUPER_ADMIN'] as const;
export type Role = (typeof roles)[number];

/** Letters, digits and underscores; 3-25 of them. */
export const usernamePattern = /^[A-Za-z0-9_]+$/;
export const usernameLength = { min: 3, max: 25 } as const;

/**
 * The spec's password rules (§5), checked in its order; the first failing rule is the answer.
 * "Special character" means anything that is neither a letter, a digit nor whitespace.
 */
export const passwordRules: readonly { isMet: (password: string) => boolean; message: string }[] = [
  { isMet: (p) => [...p].length >= 8, message: 'Password must be at least 8 characters long' },
  { isMet: (p) => /\p{Lu}/u.test(p), message: 'Password must contain at least one uppercase letter' },
  { isMet: (p) => /\p{Ll}/u.test(p), message: 'Password must contain at least one lowercase letter' },
  { isMet: (p) => /\p{Nd}/u.test(p), message: 'Password must contain at least one number' },
  { isMet: (p) => /[^\p{L}\p{N}\s]/u.test(p), message: 'Password must contain at least one special character' },
];

/**
 * Beyond the spec's rules: a new password may be at most this long (in characters: an emoji is
 * one). Sign-in accepts up to `maxSignInPasswordLength`, so a password set before this cap still works.
 */
export const maxPasswordLength = 128;
export const maxSignInPasswordLength = 1024;

/** Messages beside the spec's, in the spec's style. */
export const passwordMessages = {
  tooLong: `Password must be at most ${maxPasswordLength} characters long`,
  /** Checked by auth only (the list of common passwords is too big for the SPA's bundle). */
  tooCommon: 'Password is too common: choose one that is harder to guess',
  /** Spec §5: the registration form's confirmation. */
  doNotMatch: 'Passwords do not match',
} as const;

/** The first spec rule a new password breaks, then the length cap; undefined when none. */
export function passwordRuleProblem(password: string): string | undefined {
  const broken = passwordRules.find((rule) => !rule.isMet(password));
  if (broken) return broken.message;
  if ([...password].length > maxPasswordLength) return passwordMessages.tooLong;
  return undefined;
}

/** zod's message for a missing field, and another for a wrong type (an object where a string belongs). */
const required = (field: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required` : `${field} must be a string`;

const usernameLengthMessage = `Username must be ${usernameLength.min}-${usernameLength.max} characters long`;

export const passwordSchema = z.string({ error: required('Password') }).superRefine((password, ctx) => {
  const problem = passwordRuleProblem(password);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const registerBodySchema = z
  .object({
    email: z
      .string({ error: required('Email') })
      .trim()
      .max(254, authMessages.invalidEmail)
      .regex(z.regexes.email, authMessages.invalidEmail),
    username: z
      .string({ error: required('Username') })
      .min(usernameLength.min, usernameLengthMessage)
      .max(usernameLength.max, usernameLengthMessage)
      .regex(usernamePattern, 'Username can only contain letters, numbers and underscores'),
    password: passwordSchema,
  })
  .strict()
  .meta({ title: 'RegisterBody' });
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z
  .object({
    email: z
      .string({ error: required('Email') })
      .trim()
      .min(1, 'Email is required')
      .max(254, authMessages.invalidEmail),
    password: z
      .string({ error: required('Password') })
      .min(1, 'Password is required')
      .max(maxSignInPasswordLength, authMessages.invalidCredentials),
  })
  .strict()
  .meta({ title: 'LoginBody' });
export type LoginBody = z.infer<typeof loginBodySchema>;

/** The spec's KickAccount (§3); createdAt is the link date. */
export const kickAccountViewSchema = z.object({
  kickUsername: z.string(),
  kickEmail: z.string().nullable(),
  profilePicture: z.string().nullable(),
  createdAt: isoDateTime(),
});

/** The spec's User (§3): what register, login, profile and the admin list answer. */
export const userViewSchema = z
  .object({
    id: z.string(),
    username: z.string(),
    email: z.string(),
    role: z.enum(roles),
    isActive: z.boolean(),
    lastLogin: isoDateTime().nullable(),
    createdAt: isoDateTime(),
    botEnabled: z.boolean(),
    kickAccount: kickAccountViewSchema.nullable(),
    _count: z.object({ commands: z.number().int() }),
  })
  .meta({ title: 'User' });
export type UserView = z.infer<typeof userViewSchema>;

export const sessionSchema = z.object({ user: userViewSchema, token: z.string() }).meta({ title: 'Session' });
export type Session = z.infer<typeof sessionSchema>;

export const sessionReplySchema = messageReply(sessionSchema);
export const profileReplySchema = dataReply(userViewSchema);
