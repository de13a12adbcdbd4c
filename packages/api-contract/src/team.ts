import { z } from 'zod';
import { authMessages } from './auth';
import { dataReply, isoDateTime, messageReply } from './common';

// Issue 20 item 4: team access. A streamer (the channel owner) invites editors, who then manage
// the channel's bot settings through the same routes, naming the channel in a request header.

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
 * channel's bot setting gets routes of its own (event messages, moderation filters and log).
 */
export const editorRoutePrefixes: readonly string[] = ['/api/commands', '/api/timers', '/api/counters'];

/** Whether an editor acting for a channel may call `path` (a path without its query string). */
export function isEditorRoute(path: string): boolean {
  return editorRoutePrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** The most editors one channel can have: keeps the list and its bus snapshot small. */
export const maxEditorsPerChannel = 20;

export const teamMessages = {
  editorNotAllowed:
    'Only the channel owner can do this: editors manage commands, timers, counters, event messages and filters',
  notAnEditor: 'You are not an editor of this channel',
  invalidChannel: 'X-Kickstand-Channel must be a channel owner’s user id',
  unknownEmail: 'No Kickstand account uses this email: ask them to sign up first',
  selfInvite: 'You cannot invite yourself: you already own this channel',
  alreadyEditor: (username: string) => `${username} is already an editor of your channel`,
  limitReached: `A channel can have at most ${maxEditorsPerChannel} editors. Remove one to invite another.`,
  invited: (username: string) => `${username} can now edit your channel`,
  removed: (username: string) => `${username} can no longer edit your channel`,
  editorNotFound: 'This user is not an editor of your channel',
} as const;

export const inviteEditorBodySchema = z
  .strictObject({
    email: z
      .string({ error: 'Email is required' })
      .trim()
      .max(254, authMessages.invalidEmail)
      .regex(z.regexes.email, authMessages.invalidEmail),
  })
  .meta({ title: 'InviteEditorBody' });
export type InviteEditorBody = z.infer<typeof inviteEditorBodySchema>;

export const editorParamsSchema = z.object({ userId: z.string().min(1).max(128) });

/** One editor of the owner's channel, as the owner sees it. */
export const teamEditorSchema = z
  .object({ userId: z.string(), username: z.string(), email: z.string(), addedAt: isoDateTime() })
  .meta({ title: 'TeamEditor' });
export type TeamEditor = z.infer<typeof teamEditorSchema>;

/** A channel the caller may edit, as the editor sees it. */
export const editableChannelSchema = z
  .object({ ownerUserId: z.string(), ownerUsername: z.string(), addedAt: isoDateTime() })
  .meta({ title: 'EditableChannel' });
export type EditableChannel = z.infer<typeof editableChannelSchema>;

export const editorListReplySchema = dataReply(z.array(teamEditorSchema)).meta({ title: 'EditorListReply' });
export const editorChangeReplySchema = messageReply(teamEditorSchema).meta({ title: 'EditorChangeReply' });
export const editableChannelsReplySchema = dataReply(z.array(editableChannelSchema)).meta({
  title: 'EditableChannelsReply',
});
