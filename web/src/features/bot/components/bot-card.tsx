import type { BotStatus } from '../bot-api';
import { useStartBotMutation, useStopBotMutation } from '../bot-api';

export interface BotCardProps {
  status: BotStatus | undefined;
  isLoading: boolean;
  /** Without a linked Kick account the bot has no channel to join. */
  hasKickAccount: boolean;
}

/** Bot status and Start / Stop. Start and stop failures are swallowed (spec §8); the status query refreshes after either. */
export function BotCard({ status, isLoading, hasKickAccount }: BotCardProps) {
  const [startBot, start] = useStartBotMutation();
  const [stopBot, stop] = useStopBotMutation();
  const isRunning = status?.isRunning ?? false;
  const isConnected = status?.status === 'connected';
  const isBusy = start.isLoading || stop.isLoading;

  const toggle = async () => {
    try {
      await (isRunning ? stopBot() : startBot()).unwrap();
    } catch (error) {
      console.warn('Bot start/stop failed', error);
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
        {!hasKickAccount && !isRunning && <span className="muted small">Link your Kick account to start the bot.</span>}
        <button
          type="button"
          className={`button ${isRunning ? 'button-danger' : 'button-primary'}`}
          onClick={toggle}
          disabled={isBusy || (!isRunning && !hasKickAccount)}
        >
          {isBusy ? (isRunning ? 'Stopping…' : 'Starting…') : isRunning ? 'Stop Bot' : 'Start Bot'}
        </button>
      </div>
    </section>
  );
}
