import { createTestPlatform, type TestPlatform } from '../testing';
import { platformReadiness } from './readiness';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform('readiness');
});
afterAll(() => platform.close());

const names = (checks: ReturnType<typeof platformReadiness>) => checks.map((check) => check.name);

describe('platformReadiness', () => {
  test('when a service says nothing, then its store, the bus and its consumers are checked', async () => {
    const checks = platformReadiness(platform);
    expect(names(checks)).toEqual(['store', 'bus', 'consumers']);
    await Promise.all(checks.map((check) => check.check()));
  });

  test('when a service needs only the bus, then only the bus and its consumers are checked', () => {
    expect(names(platformReadiness(platform, ['bus']))).toEqual(['bus', 'consumers']);
  });

  test('when a service needs no engine, then nothing is checked', () => {
    expect(platformReadiness(platform, [])).toEqual([]);
  });
});
