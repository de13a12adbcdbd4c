import express, { type Express } from 'express';
import { contractRouteKeys } from '@kickstand/api-contract';
import { apiRouteKeys, createTestPlatform, type TestPlatform } from '@kickstand/platform/testing';
import { createKickLinkService } from './service';

// The HTTP contract (packages/api-contract) and this service must describe the same /api routes:
// a route added here without the contract, or described there and missing here, fails.
let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform('kick-link');
});
afterAll(async () => {
  await platform.close();
});

const isApp = (value: unknown): value is Express => typeof value === 'function' && 'set' in value && 'handle' in value;

/** kick-link mounts its platform app inside the webhook door's app: the apps handed to `use` are collected. */
function mountedApps(build: () => void): Express[] {
  const mounted: Express[] = [];
  const original = express.application.use;
  const use = jest.spyOn(express.application, 'use').mockImplementation(function (this: Express, ...args: unknown[]) {
    mounted.push(...args.filter(isApp));
    return Reflect.apply(original, this, args) as Express;
  });
  try {
    build();
  } finally {
    use.mockRestore();
  }
  return mounted;
}

test('when the kick-link app is built, then its /api routes are exactly those the contract gives kick-link', () => {
  let app: Express | undefined;
  const inner = mountedApps(() => {
    app = createKickLinkService(platform, {
      kick: { clientId: 'c', clientSecret: 's', redirectUri: 'http://x/cb', oauthUrl: 'http://x', apiUrl: 'http://x' },
    }).app;
  });
  expect(inner.length).toBeGreaterThan(0);
  expect(apiRouteKeys(app!, ...inner)).toEqual(contractRouteKeys('kick-link'));
});
