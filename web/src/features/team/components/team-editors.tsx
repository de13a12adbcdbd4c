import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { FormError } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { useGetEditorsQuery, useInviteEditorMutation, useRemoveEditorMutation } from '../team-api';

/** The owner's side: invite an editor by the e-mail of their Kickstand account, see and remove editors. */
export function TeamEditors() {
  const dispatch = useAppDispatch();
  const { data: editors = [], isError } = useGetEditorsQuery();
  const [invite, invitation] = useInviteEditorMutation();
  const [remove] = useRemoveEditorMutation();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await invite(email.trim()).unwrap();
      setProblem(undefined);
      setEmail('');
      dispatch(toastShown({ type: 'success', message: answer.message ?? 'Editor invited' }));
    } catch (error) {
      setProblem(errorMessage(error, 'The editor could not be invited.'));
    }
  };

  return (
    <section className="team-section" aria-labelledby="team-editors-heading">
      <h2 id="team-editors-heading">Editors of my channel</h2>
      <p className="muted">
        Editors manage your commands, timers, counters, event messages and filters. They cannot change your Kick link,
        your account or your editors. Every change they make is in the audit log.
      </p>
      {isError && <p role="alert">Your editors could not be loaded.</p>}
      {editors.length === 0 && !isError && <p>No editors yet.</p>}
      <ul className="team-list">
        {editors.map((editor) => (
          <li key={editor.userId} className="team-item">
            <strong>{editor.username}</strong> <span className="muted">{editor.email}</span>
            <button
              type="button"
              className="button button-danger"
              aria-label={`Remove ${editor.username}`}
              onClick={() =>
                void remove(editor.userId)
                  .unwrap()
                  .then((answer) => dispatch(toastShown({ type: 'success', message: answer.message ?? 'Removed' })))
                  .catch((error: unknown) =>
                    dispatch(
                      toastShown({ type: 'error', message: errorMessage(error, 'The editor could not be removed.') }),
                    ),
                  )
              }
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form className="team-form" onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor="team-invite-email">Editor’s e-mail</label>
        <input
          id="team-invite-email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" className="button button-primary" disabled={invitation.isLoading}>
          Invite Editor
        </button>
        <FormError message={problem} />
      </form>
    </section>
  );
}
