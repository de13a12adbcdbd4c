import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { makeStore } from '../../app/store';
import { browser } from '../../lib/browser';
import { Toaster } from '../toasts/components/toaster';
import { useKickLinkResult } from './use-kick-link-result';

function Probe({ isKickTabActive, onLinked }: { isKickTabActive: boolean; onLinked: () => void }) {
  useKickLinkResult({ isKickTabActive, onLinked });
  return null;
}

function renderAt(url: string, { isKickTabActive = false, onLinked = jest.fn() } = {}) {
  const store = makeStore();
  const invalidated: unknown[] = [];
  const dispatch = store.dispatch;
  store.dispatch = ((action: { type: string; payload?: unknown }) => {
    if (action.type === 'api/invalidateTags') invalidated.push(action.payload);
    return dispatch(action as never);
  }) as typeof store.dispatch;
  const router = createMemoryRouter(
    [{ path: '/dashboard', element: <Probe isKickTabActive={isKickTabActive} onLinked={onLinked} /> }],
    {
      initialEntries: [url],
    },
  );
  render(
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
        <Toaster />
      </Provider>
    </StrictMode>,
  );
  return { router, onLinked, invalidated };
}

describe('the Kick link result in the dashboard query (spec §4, §8)', () => {
  let reload: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    reload = jest.spyOn(browser, 'reload').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    reload.mockRestore();
  });

  test('when kick_error=duplicate, then the 8 s error toast names the account and the query is removed', () => {
    const { router } = renderAt('/dashboard?kick_error=duplicate&username=sandbox_streamer');
    const text =
      'The Kick account @sandbox_streamer is already linked to another user. Please use a different Kick account or contact support if this is your account.';
    const toast = screen.getByText(text).closest('.toast')!;
    expect(toast).toHaveClass('toast-error');
    expect(screen.getAllByTestId('toast')).toHaveLength(1); // once, also under StrictMode
    expect(router.state.location.search).toBe('');
    act(() => jest.advanceTimersByTime(7999));
    expect(toast).not.toHaveClass('toast-closing');
    act(() => jest.advanceTimersByTime(1));
    expect(toast).toHaveClass('toast-closing');
  });

  test('when kick_error=duplicate has no username, then the account is @Unknown', () => {
    renderAt('/dashboard?kick_error=duplicate');
    expect(screen.getByText(/The Kick account @Unknown is already linked to another user\./)).toBeInTheDocument();
  });

  test('when kick_error=denied (Deny on Kick), then a calm info note shows instead of an error, and the query is removed', () => {
    const { router } = renderAt('/dashboard?kick_error=denied');
    const toast = screen
      .getByText('You cancelled linking on Kick, so nothing changed. Link your Kick account whenever you are ready.')
      .closest('.toast')!;
    expect(toast).toHaveClass('toast-info');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(router.state.location.search).toBe('');
  });

  test('when kick_error=general, then the 6 s toast shows and the query is removed', () => {
    const { router } = renderAt('/dashboard?kick_error=general');
    const toast = screen
      .getByText('Failed to link your Kick account. Please try again or contact support if the problem persists.')
      .closest('.toast')!;
    expect(router.state.location.search).toBe('');
    act(() => jest.advanceTimersByTime(5999));
    expect(toast).not.toHaveClass('toast-closing');
    act(() => jest.advanceTimersByTime(1));
    expect(toast).toHaveClass('toast-closing');
  });

  test('when kick_linked=true on the Kick tab, then the session is refreshed, the query removed, and after 1 s the modal closes and the page reloads', () => {
    const { router, onLinked, invalidated } = renderAt('/dashboard?kick_linked=true', { isKickTabActive: true });
    expect(invalidated).toContainEqual(expect.arrayContaining(['Profile', 'KickStatus']));
    expect(router.state.location.search).toBe('');
    expect(router.state.historyAction).toBe('REPLACE');
    act(() => jest.advanceTimersByTime(999));
    expect(onLinked).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(1));
    expect(onLinked).toHaveBeenCalledTimes(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  test('when kick_linked=true on another tab, then the modal closes after 1 s but nothing reloads', () => {
    const { onLinked } = renderAt('/dashboard?kick_linked=true', { isKickTabActive: false });
    act(() => jest.advanceTimersByTime(1000));
    expect(onLinked).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
  });

  test('when there is nothing in the query, then nothing happens', () => {
    const { router, invalidated } = renderAt('/dashboard?tab=x');
    expect(router.state.location.search).toBe('?tab=x');
    expect(invalidated).toEqual([]);
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });
});
