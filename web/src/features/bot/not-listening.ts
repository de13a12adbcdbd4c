import type { NotListeningReason } from '../../lib/socket-events';

/** The one action that makes the bot listen again. */
export type FixAction = 'reconnect' | 'link' | 'relink' | 'contact-admin';

export interface NotListeningExplanation {
  /** Plain words for the streamer. */
  message: string;
  /** null when nothing but waiting (connecting) or the card's own Start button helps. */
  action: FixAction | null;
}

/** The action's button label. */
export const fixActionLabels: Record<FixAction, string> = {
  reconnect: 'Reconnect',
  link: 'Link Kick Account',
  relink: 'Link Kick Account again',
  'contact-admin': 'Contact the administrator',
};

/**
 * Why the bot does not hear the chat, in a streamer's words, with the action that fixes it.
 * null when there is nothing to explain: it listens, or it is simply stopped (the Start button says it).
 * `error` is the server's own words for a failed subscription; `replyError` is Kick's last refusal of
 * a reply (the bot hears but cannot answer).
 */
export function explainNotListening(
  reason: NotListeningReason | null | undefined,
  { error = '', replyError = '' }: { error?: string; replyError?: string } = {},
): NotListeningExplanation | null {
  switch (reason) {
    case 'deactivated':
      return { message: 'Your account is deactivated, so the bot cannot listen.', action: 'contact-admin' };
    case 'not-linked':
      return { message: 'Link your Kick account so the bot can join your chat.', action: 'link' };
    case 'needs-relink':
      return {
        message:
          'Kick no longer accepts your account’s sign-in (it expired or was revoked). Link your Kick account again.',
        action: 'relink',
      };
    case 'disabled-by-admin':
      return { message: 'An administrator disabled your bot.', action: 'contact-admin' };
    case 'subscription-failed':
      return {
        message: `The bot could not subscribe to your Kick chat${error ? `: ${error}` : '.'}`,
        action: 'reconnect',
      };
    case 'unsubscribed-by-admin':
      return {
        message: 'An administrator removed the bot’s chat subscription, so the bot hears nothing.',
        action: 'reconnect',
      };
    case 'subscription-lost':
      return { message: 'Kick stopped sending your chat to the bot.', action: 'reconnect' };
    case 'connecting':
      return { message: 'Connecting to your Kick chat…', action: null };
    case 'stopped':
      return null;
    default:
      // listening, or a server that predates the reason: only a refused reply is worth saying
      return replyError ? { message: `Kick refuses the bot’s replies: ${replyError}`, action: 'contact-admin' } : null;
  }
}
