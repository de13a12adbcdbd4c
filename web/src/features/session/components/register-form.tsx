import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '../../../app/hooks';
import { Field, FormError } from '../../../components/ui/field';
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
      <Field label="Email">
        {(control) => <input {...control} type="email" {...register('email')} autoComplete="email" data-autofocus />}
      </Field>
      <Field label="Username">
        {(control) => <input {...control} type="text" {...register('username')} autoComplete="username" />}
      </Field>
      <Field label="Password" hint={passwordHint}>
        {(control) => <input {...control} type="password" {...register('password')} autoComplete="new-password" />}
      </Field>
      <Field label="Confirm Password">
        {(control) => (
          <input {...control} type="password" {...register('confirmPassword')} autoComplete="new-password" />
        )}
      </Field>
      <FormError message={problem} />
      <button type="submit" className="button button-primary button-block" disabled={isLoading}>
        {isLoading ? 'Creating account…' : 'Register'}
      </button>
    </form>
  );
}
