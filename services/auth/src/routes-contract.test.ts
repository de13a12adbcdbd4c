import { contractRouteKeys } from '@kickstand/api-contract';
import { apiRouteKeys, createTestPlatform, testKeyPair } from '@kickstand/platform/testing';
import { inProcessRedeliveryWindowSeconds } from '@kickstand/platform/config';
import { createAuthService } from './service';

// The HTTP contract (packages/api-contract) and this service must describe the same /api routes:
// a route added here without the contract, or described there and missing here, fails.
test('when the auth app is built, then its /api routes are exactly those the contract gives auth', async () => {
  const platform = await createTestPlatform('auth');
  try {
    const service = createAuthService(platform, {
      jwtPrivateKey: testKeyPair().privateKeyPem,
      tokenTtlSeconds: 3600,
      redeliveryWindowSeconds: inProcessRedeliveryWindowSeconds,
    });
    expect(contractRouteKeys('auth').length).toBeGreaterThan(0);
    expect(apiRouteKeys(service.app)).toEqual(contractRouteKeys('auth'));
  } finally {
    await platform.close();
  }
});
