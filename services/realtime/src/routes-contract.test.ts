import { contractRouteKeys } from '@kickstand/api-contract';
import { apiRouteKeys, createTestPlatform } from '@kickstand/platform/testing';
import { createRealtimeService } from './service';

// The HTTP contract (packages/api-contract) and this service must describe the same /api routes:
// a route added here without the contract, or described there and missing here, fails.
test('when the realtime app is built, then its /api routes are exactly those the contract gives realtime', async () => {
  const platform = await createTestPlatform('realtime');
  try {
    const service = createRealtimeService(platform, { instanceId: 'contract' });
    expect(contractRouteKeys('realtime').length).toBeGreaterThan(0);
    expect(apiRouteKeys(service.app)).toEqual(contractRouteKeys('realtime'));
  } finally {
    await platform.close();
  }
});
