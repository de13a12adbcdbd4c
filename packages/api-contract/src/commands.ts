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

export const addCommandBodySchema = z
  .strictObject({ command: nameField, response: responseField })
  .meta({ title: 'AddCommandBody' });
export type AddCommandBody = z.infer<typeof addCommandBodySchema>;

export const removeCommandBodySchema = z.strictObject({ command: nameField }).meta({ title: 'RemoveCommandBody' });
export type RemoveCommandBody = z.infer<typeof removeCommandBodySchema>;

/** A custom command as the dashboard and the events show it: the name without `$`, and the response. */
export const commandSchema = z.object({ command: z.string(), response: z.string() }).meta({ title: 'Command' });
export type Command = z.infer<typeof commandSchema>;

/** A `{variable}` a response may hold. */
export const responseVariableSchema = z.object({ name: z.string(), description: z.string() });
export type ResponseVariable = z.infer<typeof responseVariableSchema>;

export const commandListReplySchema = dataReply(z.array(commandSchema));
export const commandChangeReplySchema = messageReply(commandSchema);
export const responseVariablesReplySchema = dataReply(z.array(responseVariableSchema));
