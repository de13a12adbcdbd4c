import { env } from '../../../config/env';
import type { BotStatus } from '../bot-api';
import { useStartBotMutation, useStopBotMutation } from '../bot-api';
import { explainNotListening, fixActionLabels } from '../not-listening';

export interface BotCardProps {
  status: BotStatus | undefined;
  isLoading: boolean;
  /** Without a linked Kick account the bot has no channel to join. */
  hasKickAccount: boolean;
  /** Starts linking the Kick account (link and relink); the dashboard passes the kick-link feature's. */
  onLink: () => void;
  /** Kick's last refusal of a reply ('' when the last reply went out). */
  replyError?: string;
}

const contactHref = `mailto:${env.feedbackEmail}?subject=${encodeURIComponent('My Kickstand bot')}`;

/**
 * Bot status and Start / Stop, and when the bot does not listen, why in plain words with the one
 * action that fixes it. Start and stop failures are swallowed (spec §8); the status query refreshes after either.
 */
export function BotCard({ status, isLoading, hasKickAccount, onLink, replyError = '' }: BotCardProps) {
  const [startBot, start] = useStartBotMutation();
  const [stopBot, stop] = useStopBotMutation();
  const isRunning = status?.isRunning ?? false;
  const isConnected = status?.status === 'connected';
  const isBusy = start.isLoading || stop.isLoading;
  // an older server sends no reason: a missing Kick account is known here anyway
  const reason = status?.notListeningReason ?? (status && !hasKickAccount ? 'not-linked' : undefined);
  const explanation = explainNotListening(reason, { error: status?.error, replyError });

  const toggle = async () => {
    try {
      await (isRunning ? stopBot() : startBot()).unwrap();
    } catch (error) {
      console.warn('Bot start/stop failed', error);
    }
  };
  const reconnect = async () => {
    try {
      await startBot().unwrap();
    } catch (error) {
      console.warn('Bot reconnect failed', error);
    }
  };

  return (
    <section className="bot-card card" aria-labelledby="bot-card-title">
      <div className="bot-card-status">
        <h2 id="bot-card-title" className="bot-card-title">
          Bot
        </h2>
        <span className={`status-pill ${isRunning ? 'status-on' : 'status-off'}`} data-testid="bot-running">
          <span className="dot" aria-hidden="true" />
          {isLoading && !status ? 'Checking…' : isRunning ? 'Running' : 'Stopped'}
        </span>
        <span className="muted small" data-testid="bot-connection">
          {isConnected ? 'Connected to chat' : 'Not connected to chat'}
          {status ? ` · ${status.commands} command${status.commands === 1 ? '' : 's'}` : ''}
        </span>
      </div>
      <div className="bot-card-actions">
        <button
          type="button"
          className={`button ${isRunning ? 'button-danger' : 'button-primary'}`}
          onClick={toggle}
          disabled={isBusy || (!isRunning && !hasKickAccount)}
        >
          {isBusy ? (isRunning ? 'Stopping…' : 'Starting…') : isRunning ? 'Stop Bot' : 'Start Bot'}
        </button>
      </div>
      {explanation && (
        <div className="bot-card-reason" role="status" data-testid="bot-reason">
          <p>{explanation.message}</p>
          {explanation.action === 'reconnect' && (
            <button type="button" className="button button-outline button-small" onClick={reconnect} disabled={isBusy}>
              {fixActionLabels.reconnect}
            </button>
          )}
          {(explanation.action === 'link' || explanation.action === 'relink') && (
            <button type="button" className="button button-outline button-small" onClick={onLink}>
              {fixActionLabels[explanation.action]}
            </button>
          )}
          {explanation.action === 'contact-admin' && (
            <a className="button button-outline button-small" href={contactHref}>
              {fixActionLabels['contact-admin']}
            </a>
          )}
        </div>
      )}
    </section>
  );
}
