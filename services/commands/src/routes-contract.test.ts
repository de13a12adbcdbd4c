import { contractRouteKeys } from '@kickstand/api-contract';
import { apiRouteKeys, createTestPlatform } from '@kickstand/platform/testing';
import { createCommandsService } from './service';

// The HTTP contract (packages/api-contract) and this service must describe the same /api routes:
// a route added here without the contract, or described there and missing here, fails.
test('when the commands app is built, then its /api routes are exactly those the contract gives commands', async () => {
  const platform = await createTestPlatform('commands');
  try {
    const service = createCommandsService(platform);
    expect(contractRouteKeys('commands').length).toBeGreaterThan(0);
    expect(apiRouteKeys(service.app)).toEqual(contractRouteKeys('commands'));
  } finally {
    await platform.close();
  }
});
