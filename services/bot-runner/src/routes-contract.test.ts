import { contractRouteKeys } from '@kickstand/api-contract';
import { apiRouteKeys, createTestPlatform } from '@kickstand/platform/testing';
import { createBotRunnerService } from './service';

// The HTTP contract (packages/api-contract) and this service must describe the same /api routes:
// a route added here without the contract, or described there and missing here, fails.
test('when the bot-runner app is built, then its /api routes are exactly those the contract gives bot-runner', async () => {
  const platform = await createTestPlatform('bot-runner');
  try {
    const service = createBotRunnerService(platform);
    expect(contractRouteKeys('bot-runner').length).toBeGreaterThan(0);
    expect(apiRouteKeys(service.app)).toEqual(contractRouteKeys('bot-runner'));
  } finally {
    await platform.close();
  }
});
