import { registrationProblem } from './password-rules';

describe('registration password rules (spec §5)', () => {
  test.each([
    ['short', 'Aa1!', 'Password must be at least 8 characters long'],
    ['no uppercase', 'abcdefg1!', 'Password must contain at least one uppercase letter'],
    ['no lowercase', 'ABCDEFG1!', 'Password must contain at least one lowercase letter'],
    ['no digit', 'Abcdefgh!', 'Password must contain at least one number'],
    ['no special character', 'Abcdefg12', 'Password must contain at least one special character'],
  ])('when the password is %s, then the message is the first broken rule', (_case, password, message) => {
    expect(registrationProblem(password, password)).toBe(message);
  });

  test('when several rules are broken, then the earliest in the spec order wins', () => {
    expect(registrationProblem('abc', 'abc')).toBe('Password must be at least 8 characters long');
    expect(registrationProblem('abcdefgh', 'abcdefgh')).toBe('Password must contain at least one uppercase letter');
  });

  test('when the password is fine but the confirmation differs, then Passwords do not match', () => {
    expect(registrationProblem('Abcdefg1!', 'Abcdefg1?')).toBe('Passwords do not match');
  });

  test('when the rules hold, then the password rules come before the confirmation check', () => {
    expect(registrationProblem('short', 'different')).toBe('Password must be at least 8 characters long');
    expect(registrationProblem('Abcdefg1!', 'Abcdefg1!')).toBeUndefined();
  });

  test('when the password meets the rules but is over 128 characters, then the length message, before the confirmation check', () => {
    const atCap = `Aa1!${'x'.repeat(124)}`;
    expect(registrationProblem(atCap, atCap)).toBeUndefined();
    expect(registrationProblem(`${atCap}x`, 'different')).toBe('Password must be at most 128 characters long');
    expect(registrationProblem(`Aa1!${'😀'.repeat(124)}`, `Aa1!${'😀'.repeat(124)}`)).toBeUndefined();
  });
});
