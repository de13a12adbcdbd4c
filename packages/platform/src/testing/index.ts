export { createFakeClock, type FakeClock } from './fake-clock';
export { createTestPlatform, testKeyPair, type TestPlatform } from './test-platform';
export { createTestStore, type TestStore } from './test-store';
export { recordPublished, type PublishedMessage, type RecordedBus } from './recorded-bus';
export { eventually } from './eventually';
export { captureLog, type CapturedLog } from './capture-log';
export { listenLocally, type LocalServer } from './local-server';
export { cookieHeaderFrom } from './cookies';
export { apiRouteKeys, registeredRoutes, type RegisteredRoute } from './registered-routes';
