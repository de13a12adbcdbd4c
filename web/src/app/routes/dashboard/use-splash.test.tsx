import { act, renderHook } from '@testing-library/react';
import { stepState, useSplash, type SplashInput } from './use-splash';

const notReady: SplashInput = {
  isProgress: false,
  isAuthenticated: true,
  isSocketConnected: false,
  isBotInitialized: false,
};

describe('dashboard loading splash (spec §2, §9)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('when plain, then it ends 500 ms after auth and socket are ready', () => {
    const { result, rerender } = renderHook((input: SplashInput) => useSplash(input), { initialProps: notReady });
    act(() => jest.advanceTimersByTime(3000));
    expect(result.current.isDone).toBe(false);

    rerender({ ...notReady, isSocketConnected: true });
    act(() => jest.advanceTimersByTime(499));
    expect(result.current.isDone).toBe(false);
    act(() => jest.advanceTimersByTime(1));
    expect(result.current.isDone).toBe(true);
    expect(result.current.isProgress).toBe(false);
  });

  test('when progress, then a step advances every 800 ms and stops at the last', () => {
    const { result } = renderHook(() => useSplash({ ...notReady, isProgress: true }));
    expect(result.current.activeStep).toBe(0);
    act(() => jest.advanceTimersByTime(799));
    expect(result.current.activeStep).toBe(0);
    act(() => jest.advanceTimersByTime(1));
    expect(result.current.activeStep).toBe(1);
    act(() => jest.advanceTimersByTime(1600));
    expect(result.current.activeStep).toBe(3);
    act(() => jest.advanceTimersByTime(8000));
    expect(result.current.activeStep).toBe(3);
  });

  test('when progress, then it ends 4 s after auth, socket and bot state are all ready', () => {
    const progress = { ...notReady, isProgress: true };
    const { result, rerender } = renderHook((input: SplashInput) => useSplash(input), { initialProps: progress });
    rerender({ ...progress, isSocketConnected: true });
    act(() => jest.advanceTimersByTime(5000));
    expect(result.current.isDone).toBe(false); // the bot state is not initialised yet

    rerender({ ...progress, isSocketConnected: true, isBotInitialized: true });
    act(() => jest.advanceTimersByTime(3999));
    expect(result.current.isDone).toBe(false);
    act(() => jest.advanceTimersByTime(1));
    expect(result.current.isDone).toBe(true);
  });

  test.each([false, true])('when nothing gets ready (progress: %s), then 15 s force it done', (isProgress) => {
    const { result } = renderHook(() => useSplash({ ...notReady, isProgress }));
    act(() => jest.advanceTimersByTime(14_999));
    expect(result.current.isDone).toBe(false);
    act(() => jest.advanceTimersByTime(1));
    expect(result.current.isDone).toBe(true);
  });

  test('when a step is before, at or after the active one, then it is completed, active or pending', () => {
    expect([0, 1, 2, 3].map((index) => stepState(index, 2))).toEqual(['completed', 'completed', 'active', 'pending']);
  });

  test('when the mode input changes after mount, then the splash keeps the mode it started with', () => {
    const { result, rerender } = renderHook((input: SplashInput) => useSplash(input), {
      initialProps: { ...notReady, isProgress: true },
    });
    rerender({ ...notReady, isProgress: false });
    expect(result.current.isProgress).toBe(true);
  });
});
