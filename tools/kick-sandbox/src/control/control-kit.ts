import type { ErrorRequestHandler, Request } from 'express';
import { z } from 'zod';
import { AppError, badRequest, conflict, notFound, validationFailed } from '@kickstand/platform/errors';
import { UserExistsError, type KickUsers } from '../kick-users';
import type { KickUserDoc } from '../repository';
import { RuleError } from '../rules';
import type { Notifier, Topic } from '../notifier';

/** A Kick user named by id (number) or username (string). */
export const userRefSchema = z.union([
  z.number().int().positive(),
  z.string().regex(/^[A-Za-z0-9_]{3,25}$/, 'a username is 3–25 letters, digits or underscores'),
]);
export type UserRef = z.infer<typeof userRefSchema>;

/** The same in a path or query: digits are an id, anything else a username. */
export const userRefParamSchema = z
  .string()
  .regex(/^(\d{1,15}|[A-Za-z0-9_]{3,25})$/, 'a user id or username')
  .transform((value): UserRef => (/^\d+$/.test(value) ? Number(value) : value));

export async function findUser(users: KickUsers, ref: UserRef): Promise<KickUserDoc> {
  const user = typeof ref === 'number' ? await users.byId(ref) : await users.byUsername(ref);
  if (!user) throw notFound(`No Kick user ${ref}`);
  return user;
}

/** Viewers typed on the chat page or named in a test exist from then on; an unknown id is still an error. */
export const findOrCreateUser = (users: KickUsers, ref: UserRef): Promise<KickUserDoc> =>
  typeof ref === 'number' ? findUser(users, ref) : users.ensure(ref);

/** Query strings may use Kick's snake_case names (`broadcaster_user_id`) or camelCase. */
export function camelizeQuery(query: unknown): Record<string, unknown> {
  if (typeof query !== 'object' || query === null) return {};
  return Object.fromEntries(
    Object.entries(query).map(([key, value]) => [key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()), value]),
  );
}

/** Like the platform's parseQuery, after camelizeQuery: a 400 `{ success:false, error, details }` when wrong. */
export function parseControlQuery<S extends z.ZodType>(schema: S, req: Request): z.infer<S> {
  const result = schema.safeParse(camelizeQuery(req.query));
  if (!result.success) {
    throw validationFailed(
      result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    );
  }
  return result.data;
}

export const waitMsSchema = z.coerce.number().int().min(0).max(30_000).optional();
export const afterSeqSchema = z.coerce.number().int().min(0).optional();
export const limitSchema = z.coerce.number().int().min(1).max(1000).optional();

/**
 * Long polling for tests: run the query; while it finds nothing, wait for the next write of the
 * topic (or the deadline) and run it again.
 */
export async function waitForResults<T>(
  notifier: Notifier,
  topic: Topic,
  waitMs: number | undefined,
  query: () => Promise<T[]>,
): Promise<T[]> {
  const deadline = Date.now() + (waitMs ?? 0);
  for (;;) {
    const found = await query();
    const left = deadline - Date.now();
    if (found.length > 0 || left <= 0) return found;
    if (!(await notifier.next(topic, left))) return found;
  }
}

/** Sandbox rules in the control API's `{ success: false, error }` shape. */
export const translateControlErrors: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  if (error instanceof UserExistsError) {
    next(conflict(error.message));
    return;
  }
  if (!(error instanceof RuleError)) {
    next(error);
    return;
  }
  switch (error.code) {
    case 'channel-not-found':
    case 'user-not-found':
    case 'message-not-found':
    case 'reply-not-found':
      next(notFound(error.message));
      return;
    case 'already-live':
    case 'not-live':
    case 'user-exists':
    case 'sender-banned':
      next(conflict(error.message));
      return;
    default:
      next(
        error.code === 'not-moderator'
          ? new AppError({ code: error.code, status: 403, message: error.message })
          : badRequest(error.message),
      );
  }
};
