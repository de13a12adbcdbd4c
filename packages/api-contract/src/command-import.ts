import { z } from 'zod';
import { dataReply } from './common';

// Issue 19 item 9: importing custom commands from another bot (commands service).

/** The bots whose exports can be imported. */
export const importSources = ['nightbot', 'streamelements', 'botrix'] as const;
export type ImportSource = (typeof importSources)[number];

/**
 * The pasted text or the file's text, at most this many characters: it keeps the request under the
 * services' JSON body limit (HTTP_BODY_LIMIT, 100 kB by default), so a longer file gets this clear
 * 400 rather than the body limit's bare 413.
 */
export const maxImportTextLength = 90_000;

export const importMessages = {
  textRequired: 'Paste the export or choose a file.',
  textTooLong: `The export is too long: at most ${maxImportTextLength.toLocaleString('en-US')} characters. Split it and import it in parts.`,
  sourceInvalid: `Choose the bot the export comes from: ${importSources.join(', ')}.`,
  /** Shown by the dashboard when the services' body limit refused the request (413). */
  bodyTooLarge: 'The export is too large to send. Split it and import it in parts.',
  nothingFound: 'No commands were found in this text. Check that you chose the right bot.',
  nothingSelected: 'Select at least one command to import.',
  /** The import would take the streamer over the spec's limit: nothing is imported. */
  overLimit: (existing: number, adding: number, max: number) =>
    `You have ${existing} commands; importing ${adding} more would exceed the limit of ${max}. Select fewer commands or remove some first.`,
  imported: (count: number) => `${count} ${count === 1 ? 'command' : 'commands'} imported.`,
} as const;

const sourceField = z.enum(importSources, { error: importMessages.sourceInvalid });
const textField = z
  .string({ error: 'text must be a string' })
  .refine((text) => text.trim() !== '', importMessages.textRequired)
  .refine((text) => text.length <= maxImportTextLength, importMessages.textTooLong);

export const importPreviewBodySchema = z
  .strictObject({ source: sourceField, text: textField })
  .meta({ title: 'ImportPreviewBody' });
export type ImportPreviewBody = z.infer<typeof importPreviewBodySchema>;

/**
 * Apply sends the same text again with the names (as previewed) of the rows to import: the server
 * parses and translates it again, so what is written is exactly what was previewed, and the body
 * stays as small as the preview's.
 */
export const importApplyBodySchema = z
  .strictObject({
    source: sourceField,
    text: textField,
    names: z.array(z.string()).min(1, importMessages.nothingSelected).max(1000),
  })
  .meta({ title: 'ImportApplyBody' });
export type ImportApplyBody = z.infer<typeof importApplyBodySchema>;

/** Who may run a command in the other bot, mapped onto Kick's badges. */
export const importedPermissions = ['everyone', 'subscriber', 'vip', 'moderator', 'broadcaster'] as const;
export type ImportedPermission = (typeof importedPermissions)[number];

/** The other bot's settings for the command, carried as data (what Kickstand can keep of them). */
export const importedSettingsSchema = z
  .object({
    enabled: z.boolean().optional(),
    /** Seconds between two runs in the channel. */
    globalCooldownSeconds: z.number().optional(),
    /** Seconds between two runs by the same viewer. */
    userCooldownSeconds: z.number().optional(),
    permission: z.enum(importedPermissions).optional(),
    /** The other bot's own wording of the permission, when it did not map exactly. */
    permissionAsExported: z.string().optional(),
    aliases: z.array(z.string()).optional(),
  })
  .meta({ title: 'ImportedSettings' });
export type ImportedSettings = z.infer<typeof importedSettingsSchema>;

export const importPreviewRowSchema = z
  .object({
    /** The name as Kickstand will keep it (without `!` or `$`). */
    name: z.string(),
    /** The name as the export has it. */
    originalName: z.string(),
    /** The response with the variables translated. */
    response: z.string(),
    /** Each variable translated: as exported → as Kickstand writes it. */
    translatedVariables: z.array(z.object({ from: z.string(), to: z.string() })),
    /** Variables Kickstand has no equivalent of: kept in the response as plain text. */
    untranslatable: z.array(z.string()),
    settings: importedSettingsSchema,
    /** Why this row cannot be imported (invalid name, too long, a duplicate…); absent when it can. */
    problem: z.string().optional(),
  })
  .meta({ title: 'ImportPreviewRow' });
export type ImportPreviewRow = z.infer<typeof importPreviewRowSchema>;

export const importPreviewSchema = z.object({
  rows: z.array(importPreviewRowSchema),
  /** How many commands the streamer has, and may have at most. */
  existingCount: z.number().int(),
  maxCommands: z.number().int(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importResultSchema = z.object({
  /** The names written, in one atomic change. */
  imported: z.array(z.string()),
  /** Selected rows not written, each with its reason. */
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
  /** Aliases of imported commands that Kickstand refused (invalid, built-in or already a name here), each with its reason. */
  aliasesLeftOut: z.array(z.object({ command: z.string(), alias: z.string(), reason: z.string() })),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const importPreviewReplySchema = dataReply(importPreviewSchema);
export const importResultReplySchema = dataReply(importResultSchema);
