import { act, renderHook } from '@testing-library/react';
import { useWelcomeModal, welcomeDismissedKey } from './use-welcome-modal';

describe('welcome modal check (spec §2)', () => {
  test('when the user has no linked Kick account, then it opens', () => {
    const { result } = renderHook(() => useWelcomeModal({ shouldOffer: true, checkKey: 'u1:false' }));
    expect(result.current.isOpen).toBe(true);
  });

  test('when the user is linked, then it stays closed', () => {
    const { result } = renderHook(() => useWelcomeModal({ shouldOffer: false, checkKey: 'u1:true' }));
    expect(result.current.isOpen).toBe(false);
  });

  test('when closed, then the dismissed flag is stored; the next check honours it and clears it', () => {
    const first = renderHook(() => useWelcomeModal({ shouldOffer: true, checkKey: 'u1:false' }));
    act(() => first.result.current.close());
    expect(first.result.current.isOpen).toBe(false);
    expect(window.localStorage.getItem(welcomeDismissedKey)).toBe('true');
    first.unmount();

    const second = renderHook(() => useWelcomeModal({ shouldOffer: true, checkKey: 'u1:false' }));
    expect(second.result.current.isOpen).toBe(false);
    expect(window.localStorage.getItem(welcomeDismissedKey)).toBeNull();
    second.unmount();

    const third = renderHook(() => useWelcomeModal({ shouldOffer: true, checkKey: 'u1:false' }));
    expect(third.result.current.isOpen).toBe(true);
  });
});
