import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { parseBody } from '@kickstand/platform/http';
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { LoginThrottle } from './login-throttle';
import { maxSignInPasswordLength, passwordProblem } from './passwords';
import { messages, usernameLength, usernamePattern, type Users } from './users';

/** zod's message for a missing field, and another for a wrong type (an object where a string belongs). */
const required = (field: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required` : `${field} must be a string`;

const invalidEmail = 'Please enter a valid email address';

export const registerBodySchema = z
  .object({
    email: z
      .string({ error: required('Email') })
      .trim()
      .max(254, invalidEmail)
      .regex(z.regexes.email, invalidEmail),
    username: z
      .string({ error: required('Username') })
      .min(usernameLength.min, `Username must be ${usernameLength.min}-${usernameLength.max} characters long`)
      .max(usernameLength.max, `Username must be ${usernameLength.min}-${usernameLength.max} characters long`)
      .regex(usernamePattern, 'Username can only contain letters, numbers and underscores'),
    // the spec's rules, then the length cap and the common-password list (passwords.ts)
    password: z.string({ error: required('Password') }).superRefine((password, ctx) => {
      const problem = passwordProblem(password);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  })
  .strict();
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z
  .object({
    email: z
      .string({ error: required('Email') })
      .trim()
      .min(1, 'Email is required')
      .max(254, invalidEmail),
    password: z
      .string({ error: required('Password') })
      .min(1, 'Password is required')
      .max(maxSignInPasswordLength, messages.invalidCredentials),
  })
  .strict();
export type LoginBody = z.infer<typeof loginBodySchema>;

/** The address a sign-in comes from (`req.ip` honours TRUST_PROXY). */
const addressOf = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** The streamer's doors: register, login, profile (spec §7). */
export function platformRoutes({
  users,
  throttle,
  tokens,
}: {
  users: Users;
  throttle: LoginThrottle;
  tokens: TokenVerifier;
}): Router {
  const router = Router();

  // no password is checked here, so nothing is counted: a newcomer may get the form wrong many times
  router.post('/api/platform/register', async (req, res) => {
    const body = parseBody(registerBodySchema, req);
    const session = await users.register(body);
    res.status(201).json({ success: true, data: session, message: messages.registered });
  });

  router.post('/api/platform/login', async (req, res) => {
    // a malformed body checks no password, so it is answered before the throttle and never counted
    const body = parseBody(loginBodySchema, req);
    // a TooManyAttemptsError carries its wait: the platform's error handler sets Retry-After
    const session = await throttle.check(body.email, addressOf(req), () => users.login(body));
    res.json({ success: true, data: session, message: messages.loggedIn });
  });

  // revokes every token the caller holds (the SPA forgets its own anyway)
  router.post('/api/platform/logout', requireUser(tokens), async (req, res) => {
    await users.signOut(currentUser(req));
    res.status(204).end();
  });

  router.get('/api/platform/profile', requireUser(tokens), async (req, res) => {
    res.json({ success: true, data: await users.profile(currentUser(req)) });
  });

  return router;
}
