export { createFakeClock, type FakeClock } from './fake-clock';
export { createTestPlatform, type TestPlatform } from './test-platform';
