import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tokenStorageKey } from '../../../config/constants';
import { fail, installFakeFetch, ok } from '../../../testing/fake-fetch';
import { aUser } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { passwordTooCommon } from '../password-rules';
import { selectSessionStatus } from '../session-slice';
import { LoginModal } from './login-modal';

async function fillRegister(user: ReturnType<typeof userEvent.setup>, password: string, confirmPassword = password) {
  await user.type(screen.getByLabelText('Email'), 'new@example.com');
  await user.type(screen.getByLabelText('Username'), 'newbie');
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm Password'), confirmPassword);
  await user.click(screen.getByRole('button', { name: 'Register' }));
}

describe('Login/Register modal', () => {
  test('when it opens, then it has the Login and Register tabs, with Login selected', () => {
    installFakeFetch();
    renderWithProviders(<LoginModal onClose={() => undefined} />);
    expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
  });

  test('when Register is chosen, then the hint about the password shows', async () => {
    const user = userEvent.setup();
    installFakeFetch();
    renderWithProviders(<LoginModal onClose={() => undefined} />);
    await user.click(screen.getByRole('tab', { name: 'Register' }));
    expect(
      screen.getByText('Must be 8+ characters with uppercase, lowercase, number, and special character.'),
    ).toBeInTheDocument();
  });

  test.each([
    ['Abc1!', 'Password must be at least 8 characters long'],
    ['abcdefg1!', 'Password must contain at least one uppercase letter'],
    ['ABCDEFG1!', 'Password must contain at least one lowercase letter'],
    ['Abcdefgh!', 'Password must contain at least one number'],
    ['Abcdefgh1', 'Password must contain at least one special character'],
  ])('when registering with %s, then "%s" shows and nothing is sent', async (password, message) => {
    const user = userEvent.setup();
    const server = installFakeFetch();
    renderWithProviders(<LoginModal onClose={() => undefined} initialTab="register" />);
    await fillRegister(user, password);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(server.requests).toHaveLength(0);
  });

  test('when the confirmation differs, then Passwords do not match', async () => {
    const user = userEvent.setup();
    const server = installFakeFetch();
    renderWithProviders(<LoginModal onClose={() => undefined} initialTab="register" />);
    await fillRegister(user, 'Abcdefg1!', 'Abcdefg1?');
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(server.requests).toHaveLength(0);
  });

  test('when registration succeeds, then the toast shows, Login is selected, the form is cleared and nobody is signed in', async () => {
    const user = userEvent.setup();
    const server = installFakeFetch({
      'POST /api/platform/register': ok({ user: aUser(), token: 'register-token' }, {}, 201),
    });
    const { store } = renderWithProviders(<LoginModal onClose={() => undefined} initialTab="register" />);
    await fillRegister(user, 'Abcdefg1!');

    expect(await screen.findByText('Registration successful! Please login.')).toBeInTheDocument();
    expect(server.callsTo('POST /api/platform/register')[0]?.body).toEqual({
      email: 'new@example.com',
      username: 'newbie',
      password: 'Abcdefg1!',
    });
    expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Email')).toHaveValue('');
    // spec §7: the token is stored, but the UI asks the user to log in
    expect(window.localStorage.getItem(tokenStorageKey)).toBe('register-token');
    expect(selectSessionStatus(store.getState())).toBe('unauthenticated');

    await user.click(screen.getByRole('tab', { name: 'Register' }));
    expect(screen.getByLabelText('Username')).toHaveValue('');
  });

  test('when registration fails, then the server error shows, else Registration failed', async () => {
    const user = userEvent.setup();
    const server = installFakeFetch({ 'POST /api/platform/register': fail(409, 'Email is already registered') });
    renderWithProviders(<LoginModal onClose={() => undefined} initialTab="register" />);
    await fillRegister(user, 'Abcdefg1!');
    expect(await screen.findByText('Email is already registered')).toBeInTheDocument();

    server.routes['POST /api/platform/register'] = { status: 502, body: undefined };
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Registration failed')).toBeInTheDocument();
  });

  test('when the server refuses a common password, then its message shows as is', async () => {
    const user = userEvent.setup();
    installFakeFetch({ 'POST /api/platform/register': fail(400, passwordTooCommon) });
    renderWithProviders(<LoginModal onClose={() => undefined} initialTab="register" />);
    await fillRegister(user, 'Password1!');
    expect(await screen.findByText('Password is too common: choose one that is harder to guess')).toBeInTheDocument();
  });

  test('when login succeeds, then the token is stored, the session is authenticated and Login successful! shows', async () => {
    const user = userEvent.setup();
    const onClose = jest.fn();
    installFakeFetch({ 'POST /api/platform/login': ok({ user: aUser(), token: 'login-token' }) });
    const { store } = renderWithProviders(<LoginModal onClose={onClose} />);
    await user.type(screen.getByLabelText('Email'), 'streamer1@example.com');
    await user.type(screen.getByLabelText('Password'), 'Abcdefg1!');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
    expect(window.localStorage.getItem(tokenStorageKey)).toBe('login-token');
    expect(selectSessionStatus(store.getState())).toBe('authenticated');
    expect(store.getState().session.isFromLogin).toBe(true);
    expect(onClose).toHaveBeenCalled();
  });

  test('when login fails, then the server error shows, else Login failed, and the token stays unset', async () => {
    const user = userEvent.setup();
    const server = installFakeFetch({ 'POST /api/platform/login': fail(401, 'Invalid email or password') });
    const { store } = renderWithProviders(<LoginModal onClose={() => undefined} />);
    await user.type(screen.getByLabelText('Email'), 'x@example.com');
    await user.type(screen.getByLabelText('Password'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    // a 401 from login is wrong credentials, never "session expired"
    expect(screen.queryByText('Your session has expired. Please log in again.')).not.toBeInTheDocument();
    expect(selectSessionStatus(store.getState())).toBe('unauthenticated');

    server.routes['POST /api/platform/login'] = { status: 500 };
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByText('Login failed')).toBeInTheDocument());
  });

  test('when Escape is pressed or the backdrop is clicked, then the modal asks to close', async () => {
    const user = userEvent.setup();
    const onClose = jest.fn();
    installFakeFetch();
    renderWithProviders(<LoginModal onClose={onClose} />);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(onClose).toHaveBeenCalledTimes(2);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(3);
  });

  test('when Tab is pressed on the last control, then focus wraps to the first (focus stays in the modal)', async () => {
    const user = userEvent.setup();
    installFakeFetch();
    renderWithProviders(<LoginModal onClose={() => undefined} />);
    expect(screen.getByLabelText('Email')).toHaveFocus();
    screen.getByRole('button', { name: 'Login' }).focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Login' })).toHaveFocus();
  });
});
