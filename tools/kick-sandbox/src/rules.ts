export type RuleCode =
  | 'channel-not-found'
  | 'user-not-found'
  | 'category-not-found'
  | 'message-not-found'
  | 'reply-not-found'
  | 'sender-banned'
  | 'not-moderator'
  | 'chat-quota-exceeded'
  | 'bot-disabled'
  | 'bot-refused'
  | 'rate-limited'
  | 'reply-refused'
  | 'subscription-limit'
  | 'webhooks-disabled'
  | 'already-live'
  | 'not-live'
  | 'user-exists';

/**
 * A sandbox rule said no. Domain code throws it; each door answers it in its own shape: Kick's
 * envelope on the Kick API, `{ success: false, error }` on the control API.
 */
export class RuleError extends Error {
  constructor(
    readonly code: RuleCode,
    message: string,
  ) {
    super(message);
    this.name = 'RuleError';
  }
}

export const channelNotFound = (id: number | string) =>
  new RuleError('channel-not-found', `No Kick channel with broadcaster user id or slug ${id}`);
export const userNotFound = (id: number | string) => new RuleError('user-not-found', `No Kick user ${id}`);
