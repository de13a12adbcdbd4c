import { createPasswordHasher, generatePassword, owaspArgon2Params, passwordProblem } from './passwords';

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

  test.each(['Abcdef1!', 'Ünïcode1€x', 'Pass word 1 ?'])(
    'when the password is %j, then it meets every rule',
    (password) => {
      expect(passwordProblem(password)).toBeUndefined();
    },
  );
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
