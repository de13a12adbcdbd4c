import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { parseBody } from '@kickstand/platform/http';
import { Router, type Request } from 'express';
import { loginBodySchema, passwordMessages, registerBodySchema as contractRegisterBody } from '@kickstand/api-contract';
import type { z } from 'zod';
import type { LoginThrottle } from './login-throttle';
import { isCommonPassword } from './passwords';
import { messages, type Users } from './users';

/**
 * The contract's sign-up body, and the check only auth can make: the common-password list (too big
 * for the SPA), made once the spec's rules pass.
 */
export const registerBodySchema = contractRegisterBody.extend({
  password: contractRegisterBody.shape.password.refine((password) => !isCommonPassword(password), {
    message: passwordMessages.tooCommon,
    when: (payload) => payload.issues.length === 0,
  }),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

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
