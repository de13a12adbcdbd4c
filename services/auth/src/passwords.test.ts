import {
  createPasswordHasher,
  generatePassword,
  isCommonPassword,
  maxPasswordLength,
  owaspArgon2Params,
  passwordProblem,
} from './passwords';

describe('password rules (spec §5, in order)', () => {
  test.each([
    ['Ab1!xyz', 'Password must be at least 8 characters long'],
    ['abcdef1!', 'Password must contain at least one uppercase letter'],
    ['ABCDEF1!', 'Password must contain at least one lowercase letter'],
    ['Abcdefg!', 'Password must contain at least one number'],
    ['Abcdefg1', 'Password must contain at least one special character'],
    ['Abcdef 1', 'Password must contain at least one special character'],
    // several rules broken: the first in the spec's order wins
    ['a', 'Password must be at least 8 characters long'],
    ['12345678', 'Password must contain at least one uppercase letter'],
    ['ABCDEFGH', 'Password must contain at least one lowercase letter'],
  ])('when the password is %j, then "%s"', (password, message) => {
    expect(passwordProblem(password)).toBe(message);
  });

  test.each(['Kickst4nd!', 'Ünïcode1€x', 'Pass word 1 ?', 'Tr0ub4dor&3'])(
    'when the password is %j, then it meets every rule and is not common',
    (password) => {
      expect(passwordProblem(password)).toBeUndefined();
    },
  );
});

describe('common passwords (zxcvbn-ts list)', () => {
  const tooCommon = 'Password is too common: choose one that is harder to guess';

  test.each([
    // in the list as is (lower-cased)
    'P@ssw0rd',
    'Pa$$w0rd',
    // a listed password with the rules' decoration: capital letter, digits and symbols around it
    'Password1!',
    'Qwerty123!',
    '!Dragon2024',
    'Iloveyou2!',
    'Letmein!1',
  ])(`when a common password that meets the rules is %j, then it is refused with "${tooCommon}"`, (password) => {
    expect(passwordProblem(password)).toBe(tooCommon);
  });

  test('when a password breaks a spec rule and is common too, then the spec rule is the answer', () => {
    expect(passwordProblem('password1!')).toBe('Password must contain at least one uppercase letter');
    expect(passwordProblem('Dragon')).toBe('Password must be at least 8 characters long');
  });

  test('when a common word is only part of a longer password, then it is not refused', () => {
    expect(isCommonPassword('Dragon-Kickstand-9!')).toBe(false);
    expect(isCommonPassword('Str0ng!Passw0rd')).toBe(false);
    expect(isCommonPassword('dragon')).toBe(true);
  });
});

describe('length cap', () => {
  const meetsRules = (length: number) => `Aa1!${'x'.repeat(length - 4)}`;

  test('when a new password has 128 characters, then it is accepted; at 129, then "Password must be at most 128 characters long"', () => {
    expect(maxPasswordLength).toBe(128);
    expect(passwordProblem(meetsRules(128))).toBeUndefined();
    expect(passwordProblem(meetsRules(129))).toBe('Password must be at most 128 characters long');
  });

  test('when characters outside the BMP are used, then each counts as one', () => {
    expect(passwordProblem(`Aa1!${'😀'.repeat(124)}`)).toBeUndefined();
    expect(passwordProblem(`Aa1!${'😀'.repeat(125)}`)).toBe('Password must be at most 128 characters long');
  });

  test('when a too long password also breaks a spec rule, then the spec rule is the answer', () => {
    expect(passwordProblem('a'.repeat(200))).toBe('Password must contain at least one uppercase letter');
  });
});

describe('generatePassword', () => {
  test('when passwords are generated, then each is 20 characters, meets the rules and differs from the others', () => {
    const generated = Array.from({ length: 200 }, () => generatePassword());
    for (const password of generated) {
      expect(password).toHaveLength(20);
      expect(passwordProblem(password)).toBeUndefined();
    }
    expect(new Set(generated).size).toBe(generated.length);
  });
});

describe('password hashing', () => {
  const hasher = createPasswordHasher();

  test('when nothing is configured, then argon2id with at least OWASP parameters (m=19456 KiB, t=2, p=1) is used', async () => {
    expect(owaspArgon2Params).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(await hasher.hash('Abcdef1!')).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  test('when a password is verified, then only the right one matches, and a damaged hash matches nothing', async () => {
    const hash = await hasher.hash('Abcdef1!');
    expect(await hasher.verify(hash, 'Abcdef1!')).toBe(true);
    expect(await hasher.verify(hash, 'Abcdef1?')).toBe(false);
    expect(await hasher.verify('not-a-hash', 'Abcdef1!')).toBe(false);
  });

  test('when the same password is hashed twice, then the salts differ', async () => {
    expect(await hasher.hash('Abcdef1!')).not.toBe(await hasher.hash('Abcdef1!'));
  });
});
