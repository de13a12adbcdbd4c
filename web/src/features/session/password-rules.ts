import { passwordMessages, passwordSchema } from '@kickstand/api-contract';

// Spec §5: the registration checks, in order, with their messages. The rules, the length cap and
// their messages are the HTTP contract's (auth checks the same). Auth also refuses a common
// password, checked only there (the list is too big for the bundle): the form shows that
// answer's `error` as is.

export const passwordHint = 'Must be 8+ characters with uppercase, lowercase, number, and special character.';
export const passwordsDoNotMatch = passwordMessages.doNotMatch;
export const passwordTooCommon = passwordMessages.tooCommon;

/** The first broken rule's message, then the length cap, then the confirmation check; undefined when the form may be sent. */
export function registrationProblem(password: string, confirmPassword: string): string | undefined {
  const problem = passwordSchema.safeParse(password).error?.issues[0]?.message;
  if (problem) return problem;
  if (password !== confirmPassword) return passwordsDoNotMatch;
  return undefined;
}
