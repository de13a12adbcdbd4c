import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { useLoginMutation } from '../auth-api';

/** Email and password; on success the session becomes authenticated and the public layout moves on to /dashboard. */
export function LoginForm({ onLoggedIn }: { onLoggedIn?: () => void }) {
  const dispatch = useAppDispatch();
  const [login, { isLoading }] = useLoginMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await login({ email, password }).unwrap();
      dispatch(toastShown({ type: 'success', message: 'Login successful!' }));
      onLoggedIn?.();
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, 'Login failed') }));
    }
  };

  return (
    <form className="form" onSubmit={submit} aria-label="Login">
      <Field label="Email">
        {(control) => (
          <input
            {...control}
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            data-autofocus
          />
        )}
      </Field>
      <Field label="Password">
        {(control) => (
          <input
            {...control}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="button button-primary button-block" disabled={isLoading}>
        {isLoading ? 'Logging in…' : 'Login'}
      </button>
    </form>
  );
}
