import { trustBehindFrontDoor } from './trust';

describe('TRUST_PROXY behind the front door', () => {
  test.each([
    ['loopback', 'loopback'],
    ['false', 'loopback'],
    ['true', 'true'],
    ['1', '2'],
    ['10.0.0.0/8', 'loopback, 10.0.0.0/8'],
    ['uniquelocal, loopback', 'uniquelocal, loopback'],
  ])('when TRUST_PROXY is %s, then the owner thread trusts %s', (given, expected) => {
    expect(trustBehindFrontDoor(given)).toBe(expected);
  });
});
