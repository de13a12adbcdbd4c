import { isLeavingPage, watchPageLeaving } from './page-leaving';

describe('page leaving', () => {
  const page = new EventTarget();
  beforeAll(() => watchPageLeaving(page as unknown as Window));
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    page.dispatchEvent(new Event('pageshow'));
    jest.useRealTimers();
  });

  test('when the page starts to unload, then it is being left', () => {
    expect(isLeavingPage()).toBe(false);
    page.dispatchEvent(new Event('beforeunload'));
    expect(isLeavingPage()).toBe(true);
  });

  test('when it comes back from the cache, then it is not being left', () => {
    page.dispatchEvent(new Event('beforeunload'));
    page.dispatchEvent(new Event('pageshow'));
    expect(isLeavingPage()).toBe(false);
  });

  test('when the navigation did not happen after all, then after 3 s it is not being left', () => {
    page.dispatchEvent(new Event('beforeunload'));
    jest.advanceTimersByTime(2999);
    expect(isLeavingPage()).toBe(true);
    jest.advanceTimersByTime(1);
    expect(isLeavingPage()).toBe(false);
  });
});
