// Team access (issue 20 item 4): which routes an editor may call for a channel owner. Kept free
// of zod so that the SPA's API client (in the first page's bundle) can import it cheaply.

/**
 * The header that names the channel a request acts for: the owner's Kickstand user id. Absent (or
 * the caller's own id) = the caller's own channel. The platform's sign-in check (requireUser)
 * verifies it against the team read model; route handlers then see the owner as the caller.
 */
export const actingChannelHeader = 'x-kickstand-channel';

/**
 * THE list of what an editor may use: the path prefixes of the routes that accept
 * `X-Kickstand-Channel` (a prefix covers the path itself and everything below it). Every other
 * signed-in route (the Kick link, the account, the bot's start/stop, the editors themselves)
 * answers 403 `editorNotAllowed` to a request acting for another channel. Extend it when a
 * channel's bot setting gets routes of its own.
 */
export const editorRoutePrefixes: readonly string[] = [
  '/api/commands',
  '/api/timers',
  '/api/counters',
  '/api/event-messages',
  // the stream card beside the event messages (read only)
  '/api/stream',
  // the filters, the moderation log and its undo
  '/api/moderation',
];

/** Whether an editor acting for a channel may call `path` (a path without its query string). */
export function isEditorRoute(path: string): boolean {
  return editorRoutePrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
