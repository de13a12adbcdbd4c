import { z } from 'zod';
import { dataReply, messageReply } from './common';

// Spec §5, §7 and §9: the streamer's custom commands (commands).

export const maxCommandNameLength = 50;
/** Spec §5 and §9. */
export const maxResponseLength = 500;
/** Spec §5: the counter turns amber above this. */
export const responseWarningLength = 450;
/** Keeps one streamer's list (and bot-runner's read model of it) bounded. */
export const maxCommandsPerUser = 500;
/** Extra names per command (issue 19): enough for spellings and short forms, bounded like the list. */
export const maxAliasesPerCommand = 10;
/** The longest cooldown a command can have: a day. */
export const maxCooldownSeconds = 86_400;

/**
 * Who may run a command, from the sender's chat badges. Each level admits the ones after it:
 * everyone < subscribers < vips < moderators < broadcaster (Nightbot's user levels), and the
 * broadcaster may run every command. A subscriber is Kick's `subscriber` or `founder` badge.
 */
export const commandPermissions = ['everyone', 'subscribers', 'vips', 'moderators', 'broadcaster'] as const;
export type CommandPermission = (typeof commandPermissions)[number];

/** A command's settings (issue 19). */
export interface CommandSettings {
  /** A disabled command stays listed and is never answered. */
  enabled: boolean;
  /** Other names it answers to, as typed (without `$`). */
  aliases: string[];
  permission: CommandPermission;
  /** Seconds between two answers in the channel (by the times the viewers sent the lines). */
  globalCooldownSeconds: number;
  /** Seconds before one viewer gets another answer; 0: none. */
  userCooldownSeconds: number;
  /** Moderators and the broadcaster skip both cooldowns. */
  modsExempt: boolean;
}

/**
 * What a command without settings does (one added before they existed, or without them): it
 * answers everyone, with the spec's 1 s cooldown per channel (§9) and none per viewer. Mods are
 * exempt by default: a moderator running `$rules` for a newcomer should not wait on viewers.
 */
export const defaultCommandSettings: CommandSettings = {
  enabled: true,
  aliases: [],
  permission: 'everyone',
  globalCooldownSeconds: 1,
  userCooldownSeconds: 0,
  modsExempt: true,
};

/** The texts the dashboard shows; spec §5 and §8 fix the wording of all but the limits of our own. */
export const commandMessages = {
  nameRequired: 'Command name is required.',
  singleWord: 'Command must be a single word (no spaces allowed).',
  invalidCharacters: 'Command can only contain letters, numbers, hyphens, and underscores.',
  nameTooLong: `Command name must be ${maxCommandNameLength} characters or less.`,
  responseRequired: 'Response text is required.',
  /** Answered by the server, and shown when the form is sent. */
  responseTooLong: `Response text must be ${maxResponseLength} characters or less`,
  /** Shown under the field while typing. */
  responseTooLongInline: `Response must be ${maxResponseLength} characters or less`,
  limitReached: `You can have at most ${maxCommandsPerUser} commands. Remove one to add another.`,
  exists: (name: string) => `Command "${name}" already exists.`,
  /** A built-in or game command's name: a custom command of that name would never answer. */
  reserved: (name: string) => `"$${name}" is a built-in command. Choose another name.`,
  notFound: (name: string) => `Command "${name}" not found.`,
  added: (name: string) => `Command "${name}" added successfully!`,
  removed: (name: string) => `Command "${name}" removed successfully!`,
  updated: (name: string) => `Command "${name}" updated successfully!`,
  /** The name (or an alias) is another command's alias. */
  aliasOf: (name: string, owner: string) => `"$${name}" is already an alias of $${owner}.`,
  aliasInvalid: (alias: string) =>
    `Alias "${alias}" must be one word of letters, numbers, hyphens and underscores, at most ${maxCommandNameLength} characters.`,
  aliasRepeated: (alias: string) => `Alias "${alias}" repeats a name of this command.`,
  tooManyAliases: `A command can have at most ${maxAliasesPerCommand} aliases.`,
  cooldown: `Cooldowns are whole seconds from 0 to ${maxCooldownSeconds}.`,
  permission: `Permission must be one of: ${commandPermissions.join(', ')}.`,
  channelNotFound: (channel: string) => `No Kickstand commands for the channel "${channel}".`,
} as const;

const namePattern = /^[A-Za-z0-9_-]+$/;

/** What the streamer typed, without surrounding blanks and without a leading `$` (names are kept without it). */
export function normalizeCommandName(typed: string): string {
  const trimmed = typed.trim();
  return trimmed.startsWith('$') ? trimmed.slice(1) : trimmed;
}

/** The first rule of spec §5 a (normalized) name breaks, in the spec's order; undefined when none. */
export function commandNameProblem(name: string): string | undefined {
  if (name === '') return commandMessages.nameRequired;
  if (/\s/.test(name)) return commandMessages.singleWord;
  if (!namePattern.test(name)) return commandMessages.invalidCharacters;
  if (name.length > maxCommandNameLength) return commandMessages.nameTooLong;
  return undefined;
}

/** The first rule of spec §5 a response breaks; undefined when none. */
export function responseProblem(response: string): string | undefined {
  if (response.trim() === '') return commandMessages.responseRequired;
  if (response.length > maxResponseLength) return commandMessages.responseTooLong;
  return undefined;
}

/** A field checked by one of the rule functions above, as a zod schema (the dashboard's forms use these). */
const ruled = (problem: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** The command name as typed in the add form (spec §5: no `$`, which the dashboard shows as a fixed prefix). */
export const commandNameSchema = ruled((typed) => commandNameProblem(typed.trim()));
export const commandResponseSchema = ruled(responseProblem);

// Strict: an unknown field or a value that is not a string (e.g. `{"$gt":""}`) is a 400 and never
// reaches a query. A missing field is an empty string, so the domain answers with the spec's message.
const nameField = z.string({ error: 'command must be a string' }).default('');
const responseField = z.string({ error: 'response must be a string' }).default('');

/** The settings a body may set; each one left out keeps its value (on add: its default). */
const cooldownField = z
  .number({ error: commandMessages.cooldown })
  .int({ error: commandMessages.cooldown })
  .min(0, { error: commandMessages.cooldown })
  .max(maxCooldownSeconds, { error: commandMessages.cooldown });
const settingsFields = {
  enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
  // each alias is checked by the domain (its message names the alias); the count bounds the body
  aliases: z
    .array(z.string({ error: 'aliases must be strings' }), { error: 'aliases must be a list of names' })
    .max(maxAliasesPerCommand, { error: commandMessages.tooManyAliases })
    .optional(),
  permission: z.enum(commandPermissions, { error: commandMessages.permission }).optional(),
  globalCooldownSeconds: cooldownField.optional(),
  userCooldownSeconds: cooldownField.optional(),
  modsExempt: z.boolean({ error: 'modsExempt must be true or false' }).optional(),
};
export type CommandSettingsInput = Partial<CommandSettings>;

export const addCommandBodySchema = z
  .strictObject({ command: nameField, response: responseField, ...settingsFields })
  .meta({ title: 'AddCommandBody' });
export type AddCommandBody = z.infer<typeof addCommandBodySchema>;

/** PATCH /api/commands/:name: the command's name as it is now (a leading `$` is dropped). */
export const commandParamsSchema = z.object({ name: z.string().max(200) });

/**
 * The changes to one command: a new name (`command`), a new response, settings. Each field left
 * out keeps its value; the same rules as adding apply to what is given.
 */
export const updateCommandBodySchema = z
  .strictObject({
    command: z.string({ error: 'command must be a string' }).optional(),
    response: z.string({ error: 'response must be a string' }).optional(),
    ...settingsFields,
  })
  .meta({ title: 'UpdateCommandBody' });
export type UpdateCommandBody = z.infer<typeof updateCommandBodySchema>;

export const removeCommandBodySchema = z.strictObject({ command: nameField }).meta({ title: 'RemoveCommandBody' });
export type RemoveCommandBody = z.infer<typeof removeCommandBodySchema>;

/** A custom command as the dashboard shows it: the name without `$`, the response and the settings. */
export const commandSchema = z
  .object({
    command: z.string(),
    response: z.string(),
    enabled: z.boolean(),
    aliases: z.array(z.string()),
    permission: z.enum(commandPermissions),
    globalCooldownSeconds: z.number().int(),
    userCooldownSeconds: z.number().int(),
    modsExempt: z.boolean(),
  })
  .meta({ title: 'Command' });
export type Command = z.infer<typeof commandSchema>;

/** A `{variable}` a response may hold. */
export const responseVariableSchema = z.object({ name: z.string(), description: z.string() });
export type ResponseVariable = z.infer<typeof responseVariableSchema>;

/** GET /api/commands/channel/:channel: a Kick channel's name (its username or slug, any letter case). */
export const channelCommandsParamsSchema = z.object({ channel: z.string().min(1).max(100) });

/** A command as the public commands page shows it: only enabled ones are listed, so no `enabled`. */
export const publicCommandSchema = commandSchema.omit({ enabled: true }).meta({ title: 'PublicCommand' });
export type PublicCommand = z.infer<typeof publicCommandSchema>;
export const channelCommandsSchema = z.object({
  /** The channel's Kick username, as Kick spells it. */
  channel: z.string(),
  commands: z.array(publicCommandSchema),
});
export type ChannelCommands = z.infer<typeof channelCommandsSchema>;

export const commandListReplySchema = dataReply(z.array(commandSchema));
export const channelCommandsReplySchema = dataReply(channelCommandsSchema);
export const commandChangeReplySchema = messageReply(commandSchema);
export const responseVariablesReplySchema = dataReply(z.array(responseVariableSchema));
