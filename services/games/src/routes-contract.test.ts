import { contractRouteKeys } from '@kickstand/api-contract';
import { apiRouteKeys, createTestPlatform } from '@kickstand/platform/testing';
import { createGamesService } from './service';

// The HTTP contract (packages/api-contract) and this service must describe the same /api routes:
// a route added here without the contract, or described there and missing here, fails.
test('when the games app is built, then its /api routes are exactly those the contract gives games', async () => {
  const platform = await createTestPlatform('games');
  try {
    const service = createGamesService(platform);
    expect(contractRouteKeys('games').length).toBeGreaterThan(0);
    expect(apiRouteKeys(service.app)).toEqual(contractRouteKeys('games'));
  } finally {
    await platform.close();
  }
});
