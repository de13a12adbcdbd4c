import { apiRoutes } from '@kickstand/api-contract';
import { createTestPlatform, registeredRoutes, type TestPlatform } from '@kickstand/platform/testing';
import { createBotRunnerService } from './service';

// The HTTP contract (packages/api-contract) and this service must describe the same /api routes:
// a route added here without the contract, or described there and missing here, fails.
const described = apiRoutes
  .filter((route) => route.owner === 'bot-runner')
  .map((route) => `${route.method.toUpperCase()} ${route.path}`)
  .sort();

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform('bot-runner');
});
afterAll(async () => {
  await platform.close();
});

test('when the bot-runner app is built, then its /api routes are exactly those the contract gives bot-runner', () => {
  const service = createBotRunnerService(platform);
  const registered = registeredRoutes(service.app)
    .filter((route) => route.path.startsWith('/api/'))
    .map((route) => `${route.method} ${route.path}`)
    .sort();
  expect(described.length).toBeGreaterThan(0);
  expect(registered).toEqual(described);
});
