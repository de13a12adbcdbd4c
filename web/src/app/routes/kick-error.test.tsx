import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeFetch } from '../../testing/fake-fetch';
import { renderApp } from '../../testing/render-with-providers';

describe('/kick-error (spec §2)', () => {
  test('when type=duplicate, then Account Already Linked names the account', async () => {
    installFakeFetch();
    renderApp('/kick-error?type=duplicate&username=sandbox_streamer');
    expect(await screen.findByRole('heading', { name: 'Account Already Linked' })).toBeInTheDocument();
    expect(screen.getByText('@sandbox_streamer')).toBeInTheDocument();
    expect(screen.getByText(/is already connected to another user/)).toBeInTheDocument();
  });

  test.each(['/kick-error', '/kick-error?type=general', '/kick-error?type=whatever'])(
    'when the page is %s, then the title is Linking Failed',
    async (path) => {
      installFakeFetch();
      renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Linking Failed' })).toBeInTheDocument();
    },
  );

  test('when 5 seconds pass, then it counts down and goes to /dashboard', async () => {
    jest.useFakeTimers();
    try {
      installFakeFetch();
      const { router } = renderApp('/kick-error?type=general');
      expect(await screen.findByText(/Redirecting to the dashboard in 5 seconds/)).toBeInTheDocument();
      for (let second = 4; second >= 1; second -= 1) {
        act(() => jest.advanceTimersByTime(1000));
        expect(screen.getByText(new RegExp(`in ${second} second`))).toBeInTheDocument();
      }
      expect(router.state.location.pathname).toBe('/kick-error');
      await act(async () => jest.advanceTimersByTime(1000));
      // signed out, so /dashboard sends the visitor on to /
      expect(['/dashboard', '/']).toContain(router.state.location.pathname);
      expect(router.state.location.pathname).not.toBe('/kick-error');
    } finally {
      jest.useRealTimers();
    }
  });

  test('when Go to Dashboard or Try Again is pressed, then it navigates or reloads', async () => {
    const user = userEvent.setup();
    installFakeFetch();
    const { router } = renderApp('/kick-error');
    const navigations: string[] = [];
    router.subscribe((state) => navigations.push(state.location.pathname));
    expect(await screen.findByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to Dashboard' }));
    expect(navigations).toContain('/dashboard');
  });
});
