import type { ErrorRequestHandler } from 'express';
import { RuleError } from '../rules';
import {
  KickApiError,
  kickBadRequest,
  kickForbidden,
  kickNotFound,
  kickServerError,
  kickTooManyRequests,
} from './kick-errors';

/** How Kick answers each sandbox rule; the texts in `data` are Kick's where kick-api.md quotes them. */
export function kickErrorForRule(error: RuleError): KickApiError {
  switch (error.code) {
    case 'channel-not-found':
    case 'bot-disabled':
      return kickBadRequest('Channel not found');
    case 'user-not-found':
      return kickBadRequest('User not found');
    case 'category-not-found':
      return kickBadRequest('Category not found');
    case 'reply-not-found':
      return kickBadRequest('Message not found');
    case 'message-not-found':
      return kickNotFound();
    case 'not-moderator':
      return kickForbidden();
    case 'bot-refused':
      return kickServerError();
    case 'rate-limited':
      return kickTooManyRequests();
    case 'reply-refused':
    case 'sender-banned':
    case 'chat-quota-exceeded':
    case 'subscription-limit':
    case 'webhooks-disabled':
    case 'already-live':
    case 'not-live':
    case 'user-exists':
      return kickBadRequest(error.message);
  }
}

/** Turns a RuleError into Kick's shape before the Kick error handler answers it. */
export const translateRuleErrors: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  next(error instanceof RuleError ? kickErrorForRule(error) : error);
};
