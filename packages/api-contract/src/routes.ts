import { z } from 'zod';
import {
  adminStatsReplySchema,
  analyticsQuerySchema,
  auditPageReplySchema,
  auditQuerySchema,
  commandUsageReplySchema,
  roleBodySchema,
  statusBodySchema,
  userListQuerySchema,
  userPageReplySchema,
  userStatusReplySchema,
} from './admin';
import { allChannelsAnalyticsQuerySchema, streamAnalyticsQuerySchema, streamAnalyticsReplySchema } from './analytics';
import { loginBodySchema, profileReplySchema, registerBodySchema, sessionReplySchema } from './auth';
import { botChangeReplySchema, botStatusReplySchema, botSwitchReplySchema } from './bot';
import {
  addCommandBodySchema,
  commandChangeReplySchema,
  commandListReplySchema,
  removeCommandBodySchema,
  responseVariablesReplySchema,
} from './commands';
import { noQuerySchema, userIdParamsSchema } from './common';
import {
  deadLetterListQuerySchema,
  deadLetterPageReplySchema,
  deadLetterParamsSchema,
  discardReplySchema,
  replayReplySchema,
} from './dead-letters';
import { deliveryHealthListReplySchema, healthListQuerySchema, ownDeliveryHealthReplySchema } from './delivery-health';
import { commandCatalogReplySchema, gamesSettingsBodySchema, gamesSettingsReplySchema } from './games';
import { healthDownReplySchema, healthReplySchema } from './gateway';
import {
  authUrlReplySchema,
  botAccountReplySchema,
  botAccountUnlinkReplySchema,
  kickStatusReplySchema,
  oauthCallbackQuerySchema,
  replySenderReplySchema,
  unlinkReplySchema,
  webhookBodySchema,
  webhookHeadersSchema,
  webhookReplySchema,
} from './kick';
import { chatHistoryReplySchema } from './realtime';
import type { ApiRoute } from './route';
import {
  subscribeBatchBodySchema,
  subscribeBodySchema,
  subscribeReplySchema,
  subscriptionListReplySchema,
  subscriptionParamsSchema,
  unsubscribeReplySchema,
} from './webhooks';

const ok = (schema: z.ZodType, description = 'OK') => ({ status: 200, description, schema });

/** Kick refused or failed: its reason, else the spec's failure text. */
const kickFailed = 'Kick refused or failed (Kick’s reason, else the spec’s failure text)';
const targetErrors = { 400: 'The user has no linked Kick account', 404: 'User not found' } as const;

/**
 * THE list of the product's HTTP routes under /api. The gateway serves it as OpenAPI; tests check
 * it against the gateway's route table and the routes each service registers (both ways).
 */
export const apiRoutes: readonly ApiRoute[] = [
  // ---- gateway
  {
    method: 'get',
    path: '/api/health',
    owner: 'gateway',
    access: 'public',
    summary: 'Each service’s readiness and uptime',
    reply: ok(healthReplySchema, 'Every service is up'),
    otherReplies: [{ status: 503, description: 'Some service is down', schema: healthDownReplySchema }],
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    owner: 'gateway',
    access: 'public',
    summary: 'This API as an OpenAPI 3.1 document',
    reply: ok(z.looseObject({ openapi: z.string() }), 'The document'),
  },
  {
    method: 'get',
    path: '/api/docs',
    owner: 'gateway',
    access: 'public',
    summary: 'This API as a readable page',
    reply: { status: 200, description: 'An HTML page', contentType: 'text/html' },
  },

  // ---- auth: the streamer's doors (spec §7)
  {
    method: 'post',
    path: '/api/platform/register',
    owner: 'auth',
    access: 'public',
    summary: 'Sign up (the spec’s password rules apply)',
    body: registerBodySchema,
    reply: { status: 201, description: 'Registration successful', schema: sessionReplySchema },
    errors: { 409: 'Email is already registered / Username is already taken' },
  },
  {
    method: 'post',
    path: '/api/platform/login',
    owner: 'auth',
    access: 'public',
    summary: 'Sign in',
    body: loginBodySchema,
    reply: ok(sessionReplySchema, 'Login successful'),
    errors: {
      401: 'Invalid email or password',
      403: 'Your account has been deactivated',
      429: 'Too many failed attempts (Retry-After says when to try again)',
    },
  },
  {
    method: 'post',
    path: '/api/platform/logout',
    owner: 'auth',
    access: 'user',
    summary: 'Sign out: revokes every token the caller holds',
    reply: { status: 204, description: 'Signed out' },
  },
  {
    method: 'get',
    path: '/api/platform/profile',
    owner: 'auth',
    access: 'user',
    summary: 'The signed-in user',
    reply: ok(profileReplySchema),
  },

  // ---- auth: the super administrator's doors
  {
    method: 'get',
    path: '/api/admin/users',
    owner: 'auth',
    access: 'admin',
    summary: 'Users, searched, filtered, sorted and paged',
    query: userListQuerySchema,
    reply: ok(userPageReplySchema),
  },
  {
    method: 'patch',
    path: '/api/admin/users/:id/status',
    owner: 'auth',
    access: 'admin',
    summary: 'Activate or deactivate a user',
    params: userIdParamsSchema,
    body: statusBodySchema,
    reply: ok(userStatusReplySchema, 'User activated successfully / User deactivated successfully'),
    errors: { 403: 'Super admin accounts cannot be deactivated', 404: 'User not found' },
  },
  {
    method: 'patch',
    path: '/api/admin/users/:id/role',
    owner: 'auth',
    access: 'admin',
    summary: "Change a user's role (USER or SUPER_ADMIN)",
    params: userIdParamsSchema,
    body: roleBodySchema,
    reply: ok(userStatusReplySchema, 'Role changed successfully'),
    errors: {
      404: 'User not found',
      409: 'The last super admin cannot become a user / The role was changed meanwhile. Reload and try again.',
    },
  },
  {
    method: 'get',
    path: '/api/admin/audit',
    owner: 'auth',
    access: 'admin',
    summary: 'The audit log, newest first',
    query: auditQuerySchema,
    reply: ok(auditPageReplySchema),
  },
  {
    method: 'get',
    path: '/api/admin/stats',
    owner: 'auth',
    access: 'admin',
    summary: 'User, command and audit figures',
    query: noQuerySchema,
    reply: ok(adminStatsReplySchema),
  },
  {
    method: 'get',
    path: '/api/admin/analytics',
    owner: 'auth',
    access: 'admin',
    summary: 'Command usage per day and the top commands',
    query: analyticsQuerySchema,
    reply: ok(commandUsageReplySchema),
  },

  // ---- bot-runner
  {
    method: 'post',
    path: '/api/platform/bot/start',
    owner: 'bot-runner',
    access: 'user',
    summary: 'Start the bot (idempotent); a body is accepted and ignored',
    reply: ok(botChangeReplySchema, 'Bot started / Bot is already running'),
    errors: {
      400: 'Link your Kick account before starting the bot. / the Kick account needs to be linked again',
      403: 'Your bot has been disabled by an administrator. / Your account has been deactivated',
    },
  },
  {
    method: 'post',
    path: '/api/platform/bot/stop',
    owner: 'bot-runner',
    access: 'user',
    summary: 'Stop the bot (idempotent)',
    reply: ok(botChangeReplySchema, 'Bot stopped / Bot is not running'),
  },
  {
    method: 'get',
    path: '/api/platform/bot/status',
    owner: 'bot-runner',
    access: 'user',
    summary: 'The bot’s status',
    reply: ok(botStatusReplySchema),
  },
  {
    method: 'post',
    path: '/api/admin/users/:id/bot/enable',
    owner: 'bot-runner',
    access: 'admin',
    summary: 'Enable a user’s bot',
    params: userIdParamsSchema,
    reply: ok(botSwitchReplySchema, 'Bot enabled successfully'),
    errors: targetErrors,
  },
  {
    method: 'post',
    path: '/api/admin/users/:id/bot/disable',
    owner: 'bot-runner',
    access: 'admin',
    summary: 'Disable a user’s bot (stops it)',
    params: userIdParamsSchema,
    reply: ok(botSwitchReplySchema, 'Bot disabled successfully'),
    errors: { 404: 'User not found' },
  },

  // ---- commands
  {
    method: 'get',
    path: '/api/commands',
    owner: 'commands',
    access: 'user',
    summary: 'The streamer’s custom commands, by name',
    reply: ok(commandListReplySchema),
  },
  {
    method: 'get',
    path: '/api/commands/variables',
    owner: 'commands',
    access: 'user',
    summary: 'The {variables} a response may use',
    reply: ok(responseVariablesReplySchema),
  },
  {
    method: 'post',
    path: '/api/commands',
    owner: 'commands',
    access: 'user',
    summary: 'Add a command (spec §5 rules)',
    body: addCommandBodySchema,
    reply: { status: 201, description: 'Command "{name}" added successfully!', schema: commandChangeReplySchema },
    errors: {
      409: 'Command "{name}" already exists. / "${name}" is a built-in command. Choose another name. / the command limit is reached',
    },
  },
  {
    method: 'delete',
    path: '/api/commands',
    owner: 'commands',
    access: 'user',
    summary: 'Remove a command by name (any letter case)',
    body: removeCommandBodySchema,
    reply: ok(commandChangeReplySchema, 'Command "{name}" removed successfully!'),
    errors: { 404: 'Command "{name}" not found.' },
  },

  // ---- games
  {
    method: 'get',
    path: '/api/games/catalog',
    owner: 'games',
    access: 'public',
    summary: 'The built-in chat commands, by category',
    reply: ok(commandCatalogReplySchema),
  },
  {
    method: 'get',
    path: '/api/games/settings',
    owner: 'games',
    access: 'user',
    summary: 'The streamer’s game settings (Steam account for $mmr and $rank)',
    reply: ok(gamesSettingsReplySchema),
  },
  {
    method: 'put',
    path: '/api/games/settings',
    owner: 'games',
    access: 'user',
    summary: 'Save the streamer’s game settings',
    body: gamesSettingsBodySchema,
    reply: ok(gamesSettingsReplySchema),
  },

  // ---- realtime
  {
    method: 'get',
    path: '/api/realtime/chat',
    owner: 'realtime',
    access: 'user',
    summary: 'The live chat’s last lines (as a socket gets them on connect)',
    reply: ok(chatHistoryReplySchema),
  },
  {
    method: 'get',
    path: '/api/analytics/stream',
    owner: 'realtime',
    access: 'user',
    summary: 'The streamer’s stream analytics: last stream, last 7 or 30 days',
    query: streamAnalyticsQuerySchema,
    reply: ok(streamAnalyticsReplySchema),
  },
  {
    method: 'get',
    path: '/api/admin/analytics/stream',
    owner: 'realtime',
    access: 'admin',
    summary: 'Stream analytics across all channels: last 7 or 30 days',
    query: allChannelsAnalyticsQuerySchema,
    reply: ok(streamAnalyticsReplySchema),
  },

  // ---- kick-link: the streamer's Kick account
  {
    method: 'post',
    path: '/api/platform/kick/link',
    owner: 'kick-link',
    access: 'user',
    summary: 'Start linking a Kick account: where to send the browser',
    reply: ok(authUrlReplySchema),
    errors: { 500: 'Failed to start Kick linking' },
  },
  {
    method: 'get',
    path: '/api/platform/kick/status',
    owner: 'kick-link',
    access: 'user',
    summary: 'The linked Kick account, if any',
    reply: ok(kickStatusReplySchema),
    errors: { 500: 'Failed to check Kick account status' },
  },
  {
    method: 'delete',
    path: '/api/platform/kick/unlink',
    owner: 'kick-link',
    access: 'user',
    summary: 'Unlink the Kick account',
    reply: ok(unlinkReplySchema, 'Kick account unlinked successfully'),
    errors: { 404: 'No Kick account is linked', 500: 'Failed to unlink Kick account' },
  },
  {
    method: 'get',
    path: '/api/platform/kick/delivery-health',
    owner: 'kick-link',
    access: 'user',
    summary: 'The delivery health of the streamer’s channel',
    query: noQuerySchema,
    reply: ok(ownDeliveryHealthReplySchema),
  },
  {
    method: 'get',
    path: '/api/platform/kick/chat-sender',
    owner: 'kick-link',
    access: 'user',
    summary: 'Who the bot’s replies are posted as',
    reply: ok(replySenderReplySchema),
    errors: { 404: 'No Kick account is linked', 500: 'Failed to check who posts the replies' },
  },
  {
    method: 'get',
    path: '/api/kick/oauth/callback',
    owner: 'kick-link',
    access: 'public',
    summary: 'Where Kick sends the browser back after authorizing',
    description: 'Always a redirect to the dashboard (kick_linked=true or kick_error=…), never JSON.',
    query: oauthCallbackQuerySchema,
    reply: { status: 302, description: 'To the dashboard', headers: { Location: 'The dashboard with the outcome' } },
  },
  {
    method: 'post',
    path: '/api/kick/webhook',
    owner: 'kick-link',
    access: 'public',
    summary: 'Kick’s signed webhook deliveries',
    description:
      'Refused only when the signature does not verify or the timestamp is stale (401), or the body is too large ' +
      '(413); a correctly signed delivery of any shape is answered 200 (an unusable one is kept as a dead letter).',
    headers: webhookHeadersSchema,
    body: webhookBodySchema,
    reply: ok(webhookReplySchema, 'Delivered (or kept as a dead letter)'),
    errors: { 401: 'Invalid webhook signature', 503: 'The delivery could not be kept; try again shortly' },
  },

  // ---- kick-link: the super administrator's views
  {
    method: 'get',
    path: '/api/admin/kick/delivery-health',
    owner: 'kick-link',
    access: 'admin',
    summary: 'Delivery health of every linked channel',
    query: healthListQuerySchema,
    reply: ok(deliveryHealthListReplySchema),
  },
  {
    method: 'get',
    path: '/api/admin/kick/dead-letters',
    owner: 'kick-link',
    access: 'admin',
    summary: 'Webhook deliveries that could not be used, newest first',
    query: deadLetterListQuerySchema,
    reply: ok(deadLetterPageReplySchema),
  },
  {
    method: 'post',
    path: '/api/admin/kick/dead-letters/:id/replay',
    owner: 'kick-link',
    access: 'admin',
    summary: 'Process a dead letter again',
    params: deadLetterParamsSchema,
    reply: ok(replayReplySchema, 'Delivery replayed'),
    errors: { 404: 'Dead letter not found', 422: 'The delivery still cannot be used: {reason}' },
  },
  {
    method: 'delete',
    path: '/api/admin/kick/dead-letters/:id',
    owner: 'kick-link',
    access: 'admin',
    summary: 'Discard a dead letter',
    params: deadLetterParamsSchema,
    reply: ok(discardReplySchema, 'Dead letter discarded'),
    errors: { 404: 'Dead letter not found' },
  },
  {
    method: 'get',
    path: '/api/admin/bot-account',
    owner: 'kick-link',
    access: 'admin',
    summary: 'The platform’s bot account (who posts the replies)',
    reply: ok(botAccountReplySchema),
    errors: { 500: 'Failed to load the bot account' },
  },
  {
    method: 'post',
    path: '/api/admin/bot-account/link',
    owner: 'kick-link',
    access: 'admin',
    summary: 'Start linking the bot account: where to send the browser',
    reply: ok(authUrlReplySchema),
    errors: { 500: 'Failed to start linking the bot account' },
  },
  {
    method: 'delete',
    path: '/api/admin/bot-account',
    owner: 'kick-link',
    access: 'admin',
    summary: 'Unlink the bot account',
    reply: ok(botAccountUnlinkReplySchema, 'Bot account unlinked'),
    errors: { 404: 'No bot account is linked', 500: 'Failed to unlink the bot account' },
  },

  // ---- kick-link: a user's webhook subscriptions (spec §7)
  {
    method: 'get',
    path: '/api/admin/users/:id/webhooks',
    owner: 'kick-link',
    access: 'admin',
    summary: 'The user’s channel’s event subscriptions',
    params: userIdParamsSchema,
    reply: ok(subscriptionListReplySchema),
    errors: { ...targetErrors, 502: kickFailed },
  },
  {
    method: 'post',
    path: '/api/admin/users/:id/webhooks',
    owner: 'kick-link',
    access: 'admin',
    summary: 'Subscribe to one event',
    params: userIdParamsSchema,
    body: subscribeBodySchema,
    reply: ok(subscribeReplySchema, 'Subscribed successfully'),
    errors: { ...targetErrors, 502: kickFailed },
  },
  {
    method: 'post',
    path: '/api/admin/users/:id/webhooks/subscribe-batch',
    owner: 'kick-link',
    access: 'admin',
    summary: 'Subscribe to the selected events',
    params: userIdParamsSchema,
    body: subscribeBatchBodySchema,
    reply: ok(subscribeReplySchema, 'Subscribed to selected events'),
    errors: { ...targetErrors, 502: kickFailed },
  },
  {
    method: 'post',
    path: '/api/admin/users/:id/webhooks/subscribe-all',
    owner: 'kick-link',
    access: 'admin',
    summary: 'Subscribe to every subscribable event',
    params: userIdParamsSchema,
    reply: ok(subscribeReplySchema, 'Subscribed to all events'),
    errors: { ...targetErrors, 502: kickFailed },
  },
  {
    method: 'post',
    path: '/api/admin/users/:id/webhooks/unsubscribe-all',
    owner: 'kick-link',
    access: 'admin',
    summary: 'Remove every subscription of the channel',
    params: userIdParamsSchema,
    reply: ok(unsubscribeReplySchema, 'Unsubscribed from all events'),
    errors: { ...targetErrors, 502: kickFailed },
  },
  {
    method: 'delete',
    path: '/api/admin/users/:id/webhooks/:subscriptionId',
    owner: 'kick-link',
    access: 'admin',
    summary: 'Remove one subscription',
    params: subscriptionParamsSchema,
    reply: ok(unsubscribeReplySchema, 'Unsubscribed successfully'),
    errors: { ...targetErrors, 404: 'User not found / Subscription not found', 502: kickFailed },
  },
];

/** `METHOD /path` of every route the contract gives `owner`, sorted (the services' route tests). */
export function contractRouteKeys(owner: ApiRoute['owner']): string[] {
  return apiRoutes
    .filter((route) => route.owner === owner)
    .map((route) => `${route.method.toUpperCase()} ${route.path}`)
    .sort();
}
