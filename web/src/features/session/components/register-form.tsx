import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '../../../app/hooks';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { useRegisterMutation } from '../auth-api';
import {
  passwordHint,
  registrationFormProblem,
  registrationFormSchema,
  type RegistrationForm,
} from '../password-rules';

const emptyForm: RegistrationForm = { email: '', username: '', password: '', confirmPassword: '' };

/**
 * Email, username, password and its confirmation (react-hook-form, checked by the contract's password
 * schema through zodResolver). The password rules run in the spec's order (§5) before anything is sent; a successful registration does not sign in (§4): the form is
 * cleared and the modal switches to Login.
 */
export function RegisterForm({ onRegistered }: { onRegistered: () => void }) {
  const dispatch = useAppDispatch();
  const [registerUser, { isLoading }] = useRegisterMutation();
  const { register, handleSubmit, reset, formState } = useForm<RegistrationForm>({
    resolver: zodResolver(registrationFormSchema),
    defaultValues: emptyForm,
  });
  const problem = registrationFormProblem(formState.errors);
  const passwordId = useId();

  const submit = handleSubmit(async ({ email, username, password }) => {
    try {
      await registerUser({ email, username, password }).unwrap();
      dispatch(toastShown({ type: 'success', message: 'Registration successful! Please login.' }));
      reset(emptyForm);
      onRegistered();
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, 'Registration failed') }));
    }
  });

  return (
    <form className="form" onSubmit={(event) => void submit(event)} aria-label="Register">
      <label className="field">
        <span className="field-label">Email</span>
        <input type="email" {...register('email')} autoComplete="email" data-autofocus />
      </label>
      <label className="field">
        <span className="field-label">Username</span>
        <input type="text" {...register('username')} autoComplete="username" />
      </label>
      <div className="field">
        <label className="field-label" htmlFor={passwordId}>
          Password
        </label>
        <input
          id={passwordId}
          type="password"
          {...register('password')}
          autoComplete="new-password"
          aria-describedby={`${passwordId}-hint`}
        />
        <span id={`${passwordId}-hint`} className="field-hint">
          {passwordHint}
        </span>
      </div>
      <label className="field">
        <span className="field-label">Confirm Password</span>
        <input type="password" {...register('confirmPassword')} autoComplete="new-password" />
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
