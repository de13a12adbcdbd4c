import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { parseBody } from '@kickstand/platform/http';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { maxPasswordLength, passwordProblem } from './passwords';
import { tooManyAttempts, type RateLimiter } from './rate-limit';
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
    password: z
      .string({ error: required('Password') })
      .superRefine((password, ctx) => {
        const problem = passwordProblem(password);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .max(maxPasswordLength, `Password must be at most ${maxPasswordLength} characters long`),
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
      .max(maxPasswordLength, messages.invalidCredentials),
  })
  .strict();
export type LoginBody = z.infer<typeof loginBodySchema>;

/** Counts the attempt; over the limit, answers 429 with Retry-After. */
async function countAttempt(limiter: RateLimiter, res: Response, kind: 'ip' | 'email', key: string): Promise<void> {
  const decision = await limiter.hit(kind, key);
  if (decision.isAllowed) return;
  res.setHeader('Retry-After', String(decision.retryAfterSeconds));
  throw tooManyAttempts(decision.retryAfterSeconds);
}

// every attempt counts, valid or not, successful or not: per IP first, then per email
const countByIp = (limiter: RateLimiter, req: Request, res: Response) =>
  countAttempt(limiter, res, 'ip', req.ip ?? req.socket.remoteAddress ?? 'unknown');
const countByEmail = (limiter: RateLimiter, res: Response, email: string) =>
  countAttempt(limiter, res, 'email', email.toLowerCase());

/** The streamer's doors: register, login, profile (spec §7). */
export function platformRoutes({
  users,
  limiter,
  tokens,
}: {
  users: Users;
  limiter: RateLimiter;
  tokens: TokenVerifier;
}): Router {
  const router = Router();

  router.post('/api/platform/register', async (req, res) => {
    await countByIp(limiter, req, res);
    const body = parseBody(registerBodySchema, req);
    await countByEmail(limiter, res, body.email);
    const session = await users.register(body);
    res.status(201).json({ success: true, data: session, message: messages.registered });
  });

  router.post('/api/platform/login', async (req, res) => {
    await countByIp(limiter, req, res);
    const body = parseBody(loginBodySchema, req);
    await countByEmail(limiter, res, body.email);
    const session = await users.login(body);
    res.json({ success: true, data: session, message: messages.loggedIn });
  });

  router.get('/api/platform/profile', requireUser(tokens), async (req, res) => {
    res.json({ success: true, data: await users.profile(currentUser(req)) });
  });

  return router;
}
