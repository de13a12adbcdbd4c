import { apiRoutes } from '@kickstand/api-contract';
import { createTestPlatform, registeredRoutes, type TestPlatform } from '@kickstand/platform/testing';
import { testKeyPair } from '@kickstand/platform/testing';
import { createAuthService } from './service';

// The HTTP contract (packages/api-contract) and this service must describe the same /api routes:
// a route added here without the contract, or described there and missing here, fails.
const described = apiRoutes
  .filter((route) => route.owner === 'auth')
  .map((route) => `${route.method.toUpperCase()} ${route.path}`)
  .sort();

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform('auth');
});
afterAll(async () => {
  await platform.close();
});

test('when the auth app is built, then its /api routes are exactly those the contract gives auth', () => {
  const service = createAuthService(platform, { jwtPrivateKey: testKeyPair().privateKeyPem, tokenTtlSeconds: 3600 });
  const registered = registeredRoutes(service.app)
    .filter((route) => route.path.startsWith('/api/'))
    .map((route) => `${route.method} ${route.path}`)
    .sort();
  expect(described.length).toBeGreaterThan(0);
  expect(registered).toEqual(described);
});
