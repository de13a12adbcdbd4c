export { createFakeClock, type FakeClock } from './fake-clock';
export { createTestPlatform, testKeyPair, type TestPlatform } from './test-platform';
export { recordPublished, type PublishedMessage, type RecordedBus } from './recorded-bus';
export { eventually } from './eventually';
export { cookieHeaderFrom } from './cookies';
export { apiRouteKeys, registeredRoutes, type RegisteredRoute } from './registered-routes';
