import { passwordMessages, passwordSchema } from '@kickstand/api-contract';
import type { FieldErrors } from 'react-hook-form';
import { z } from 'zod';

// Spec §5: the registration checks, in order, with their messages. The rules, the length cap and
// their messages are the HTTP contract's (auth checks the same). Auth also refuses a common
// password, checked only there (the list is too big for the bundle): the form shows that
// answer's `error` as is.

export const passwordHint = 'Must be 8+ characters with uppercase, lowercase, number, and special character.';
export const passwordsDoNotMatch = passwordMessages.doNotMatch;
export const passwordTooCommon = passwordMessages.tooCommon;

/**
 * The sign-up form's values. Only the password is checked here (email and username are the
 * server's to judge, its `error` shows as is); the confirmation is compared once the password passes.
 */
export const registrationFormSchema = z
  .object({ email: z.string(), username: z.string(), password: passwordSchema, confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, {
    message: passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type RegistrationForm = z.infer<typeof registrationFormSchema>;

/** The one message the form shows: the password's first broken rule, else the confirmation's. */
export const registrationFormProblem = (errors: FieldErrors<RegistrationForm>): string | undefined =>
  errors.password?.message ?? errors.confirmPassword?.message;

/** The first broken rule's message, then the length cap, then the confirmation check; undefined when the form may be sent. */
export function registrationProblem(password: string, confirmPassword: string): string | undefined {
  const issues =
    registrationFormSchema.safeParse({ email: '', username: '', password, confirmPassword }).error?.issues ?? [];
  const on = (field: keyof RegistrationForm) => issues.find((issue) => issue.path[0] === field)?.message;
  return on('password') ?? on('confirmPassword');
}
