import { z } from 'zod';
import { auditEntrySchema } from './admin';
import { authMessages } from './auth';
import { dataReply, isoDateTime, messageReply } from './common';

// Issue 20 item 4: team access. A streamer (the channel owner) invites editors, who then manage
// the channel's bot settings through the same routes, naming the channel in a request header.
// The header and THE list of editor routes are in editor-routes.ts (no zod: the SPA's API client reads them).

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

/** How many of the channel's team events GET /api/team/activity answers (newest first). */
export const teamActivityLimit = 100;
export const teamActivityReplySchema = dataReply(z.array(auditEntrySchema)).meta({ title: 'TeamActivityReply' });
