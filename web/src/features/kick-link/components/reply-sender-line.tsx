import { useEffect } from 'react';
import { getSocket } from '../../../lib/socket';
import { useGetChatSenderQuery } from '../kick-api';

/** While posting as Kick's bot, a sent line asks the server again at most this often. */
const sentRefetchGapMs = 10_000;

/** The dashboard's line under the bot card: who the bot's replies appear from, and why if they fail. */
export function ReplySenderLine({ hasKickAccount }: { hasKickAccount: boolean }) {
  const sender = useGetChatSenderQuery(undefined, { skip: !hasKickAccount });
  const { refetch } = sender;
  const isLoaded = sender.isSuccess;
  const hasError = Boolean(sender.data?.lastError);
  // posting as Kick's bot may turn into the fallback at any reply, which raises no bot-error
  const mayFallBack = sender.data?.kind === 'streamer-bot';

  useEffect(() => {
    // a failed reply changes the sender's state (fallback, last error), and the next sent one
    // clears the error: ask again then
    if (!isLoaded) return;
    const socket = getSocket();
    const onChange = () => void refetch();
    let lastAskedAtMs = 0;
    const onSent = () => {
      // a busy chat sends many lines: while nothing is wrong, once in a while is enough
      const now = Date.now();
      if (!hasError && now - lastAskedAtMs < sentRefetchGapMs) return;
      lastAskedAtMs = now;
      void refetch();
    };
    socket.on('bot-error', onChange);
    if (hasError || mayFallBack) socket.on('message-sent', onSent);
    return () => {
      socket.off('bot-error', onChange);
      socket.off('message-sent', onSent);
    };
  }, [isLoaded, hasError, mayFallBack, refetch]);

  const data = sender.data;
  if (!hasKickAccount || !data) return null;
  return (
    <div className="card reply-sender" data-testid="reply-sender">
      <p>
        Replies are posted as <strong>@{data.kickUsername}</strong>
        {data.kind === 'streamer-bot' && ' (as Kick’s bot for your channel)'}
      </p>
      {data.isFallback && (
        <p className="muted small">
          Kick refused the app’s bot in your channel ({data.botRefusal || 'no reason given'}), so replies are posted
          from your own account
          {data.botRetryAt ? `; the bot is tried again after ${new Date(data.botRetryAt).toLocaleString()}` : ''}.
        </p>
      )}
      {data.lastError && (
        <p className="form-error small" role="status">
          Last reply failed: {data.lastError}
        </p>
      )}
    </div>
  );
}

/** The Setup tab's hint: the platform's bot account must be a moderator to post in every chat. */
export function BotModeratorHint({ hasKickAccount }: { hasKickAccount: boolean }) {
  const sender = useGetChatSenderQuery(undefined, { skip: !hasKickAccount });
  const name = sender.data?.botAccountUsername;
  if (!name) return null;
  return (
    <section className="card" data-testid="bot-moderator-hint">
      <h3 className="section-title">Make the bot a moderator</h3>
      <p>
        Make @{name} a moderator of your channel: type <code>/mod {name}</code> in your chat.
      </p>
    </section>
  );
}
