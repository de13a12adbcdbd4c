/** Spec §5: the registration checks, in order, with their messages. */
const passwordRules: readonly { isBroken: (password: string) => boolean; message: string }[] = [
  { isBroken: (p) => p.length < 8, message: 'Password must be at least 8 characters long' },
  { isBroken: (p) => !/[A-Z]/.test(p), message: 'Password must contain at least one uppercase letter' },
  { isBroken: (p) => !/[a-z]/.test(p), message: 'Password must contain at least one lowercase letter' },
  { isBroken: (p) => !/\d/.test(p), message: 'Password must contain at least one number' },
  { isBroken: (p) => !/[^A-Za-z0-9]/.test(p), message: 'Password must contain at least one special character' },
];

export const passwordHint = 'Must be 8+ characters with uppercase, lowercase, number, and special character.';
export const passwordsDoNotMatch = 'Passwords do not match';

/**
 * Beyond the spec's rules, auth also refuses (services/auth/src/passwords.ts, the authority) a
 * password over this length, checked here too so nothing is sent, and a common password, checked
 * only there (the list is too big for the bundle): the form shows that answer's `error` as is.
 */
export const maxPasswordLength = 128;
export const passwordTooLong = `Password must be at most ${maxPasswordLength} characters long`;
export const passwordTooCommon = 'Password is too common: choose one that is harder to guess';

/** The first broken rule's message, then the length cap, then the confirmation check; undefined when the form may be sent. */
export function registrationProblem(password: string, confirmPassword: string): string | undefined {
  const broken = passwordRules.find((rule) => rule.isBroken(password));
  if (broken) return broken.message;
  // in characters, as the server counts them (an emoji is one)
  if ([...password].length > maxPasswordLength) return passwordTooLong;
  if (password !== confirmPassword) return passwordsDoNotMatch;
  return undefined;
}
