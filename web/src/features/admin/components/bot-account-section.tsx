import { useSearchParams } from 'react-router-dom';
import { browser } from '../../../lib/browser';
import { useGetBotAccountQuery, useLinkBotAccountMutation, useUnlinkBotAccountMutation } from '../bot-account-api';

const callbackMessages: Record<string, string> = {
  scope: 'Kick did not grant chat:write: the bot account was not linked',
  general: 'Linking the bot account failed',
};

/**
 * The admin's "Bot account": the Kick account every channel's replies are posted from (with
 * `type: "user"`), linked through Kick's OAuth like a streamer's. Without one, replies go out with
 * the streamer's own token.
 */
export function BotAccountSection() {
  const account = useGetBotAccountQuery();
  const [link, linking] = useLinkBotAccountMutation();
  const [unlink, unlinking] = useUnlinkBotAccountMutation();
  const [params] = useSearchParams();
  const linkedNow = params.get('bot_linked') === 'true';
  const callbackError = callbackMessages[params.get('bot_error') ?? ''];

  const start = async () => {
    try {
      const { authUrl } = await link().unwrap();
      browser.goTo(authUrl);
    } catch (error) {
      console.warn('Could not start linking the bot account', error);
    }
  };

  const bot = account.data;
  return (
    <section className="card bot-account" aria-labelledby="bot-account-title" data-testid="bot-account">
      <h2 id="bot-account-title" className="section-title">
        Bot account
      </h2>
      {linkedNow && <p role="status">Bot account linked.</p>}
      {callbackError && <p className="form-error">{callbackError}</p>}
      {account.isLoading && <p className="muted">Loading…</p>}
      {account.isError && <p className="form-error">Failed to load the bot account</p>}
      {account.isSuccess && !bot && (
        <p className="muted">
          No bot account is linked: replies are posted with each streamer’s own Kick account. Link a dedicated Kick
          account to post every reply from it.
        </p>
      )}
      {bot && (
        <p>
          Replies are posted as <strong>@{bot.kickUsername}</strong>
          {bot.needsRelink && <span className="form-error"> · Kick asks for a new link: link it again</span>}
        </p>
      )}
      <div className="actions-row">
        <button type="button" className="button button-primary" onClick={start} disabled={linking.isLoading}>
          {bot ? 'Link another account' : 'Link bot account'}
        </button>
        {bot && (
          <button
            type="button"
            className="button button-danger"
            onClick={() =>
              void unlink()
                .unwrap()
                .catch((error: unknown) => console.warn('Unlink failed', error))
            }
            disabled={unlinking.isLoading}
          >
            Unlink
          </button>
        )}
      </div>
    </section>
  );
}
