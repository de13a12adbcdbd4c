import { useId, useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { useRegisterMutation } from '../auth-api';
import { passwordHint, registrationProblem } from '../password-rules';

const emptyForm = { email: '', username: '', password: '', confirmPassword: '' };

/**
 * Email, username, password and its confirmation. The password rules run in the spec's order
 * (§5) before anything is sent; a successful registration does not sign in (§4): the form is
 * cleared and the modal switches to Login.
 */
export function RegisterForm({ onRegistered }: { onRegistered: () => void }) {
  const dispatch = useAppDispatch();
  const [register, { isLoading }] = useRegisterMutation();
  const [form, setForm] = useState(emptyForm);
  const [problem, setProblem] = useState<string | undefined>();
  const passwordId = useId();

  const update = (field: keyof typeof emptyForm) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = registrationProblem(form.password, form.confirmPassword);
    setProblem(found);
    if (found) return;
    try {
      await register({ email: form.email, username: form.username, password: form.password }).unwrap();
      dispatch(toastShown({ type: 'success', message: 'Registration successful! Please login.' }));
      setForm(emptyForm);
      onRegistered();
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, 'Registration failed') }));
    }
  };

  return (
    <form className="form" onSubmit={submit} aria-label="Register">
      <label className="field">
        <span className="field-label">Email</span>
        <input
          type="email"
          name="email"
          autoComplete="email"
          value={form.email}
          onChange={update('email')}
          data-autofocus
        />
      </label>
      <label className="field">
        <span className="field-label">Username</span>
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={form.username}
          onChange={update('username')}
        />
      </label>
      <div className="field">
        <label className="field-label" htmlFor={passwordId}>
          Password
        </label>
        <input
          id={passwordId}
          type="password"
          name="password"
          autoComplete="new-password"
          aria-describedby={`${passwordId}-hint`}
          value={form.password}
          onChange={update('password')}
        />
        <span id={`${passwordId}-hint`} className="field-hint">
          {passwordHint}
        </span>
      </div>
      <label className="field">
        <span className="field-label">Confirm Password</span>
        <input
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          value={form.confirmPassword}
          onChange={update('confirmPassword')}
        />
      </label>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="button button-primary button-block" disabled={isLoading}>
        {isLoading ? 'Creating account…' : 'Register'}
      </button>
    </form>
  );
}
