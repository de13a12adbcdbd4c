import { commandMessages as contractMessages, commandNameSchema, commandResponseSchema } from '@kickstand/api-contract';
import { commandPermissions } from '@kickstand/api-contract';
import { z } from 'zod';
import { aliasesProblem, cooldownProblem, parseAliases } from './command-settings';

// Spec §5: the add-command checks, each list in the spec's order. The rules and their messages are
// the HTTP contract's (the commands service checks the same); uniqueness is checked here, against the list.

export const commandMessages = {
  ...contractMessages,
  /** Shown when the form is sent. */
  responseTooLongOnSubmit: contractMessages.responseTooLong,
  addFailed: 'Failed to add command. Please try again.',
  removeFailed: 'Failed to remove command. Please try again.',
  updateFailed: 'Failed to update command. Please try again.',
  enabled: (name: string) => `Command "${name}" enabled.`,
  disabled: (name: string) => `Command "${name}" disabled: it stays listed and does not answer.`,
  /** Spec §5 writes `${name}`: the $ prefix followed by the name. */
  confirmRemove: (name: string) => `Are you sure you want to remove the command $${name}?`,
} as const;

/** The first message of a failed check, or undefined. */
const firstProblem = (schema: z.ZodType, value: string): string | undefined =>
  schema.safeParse(value).error?.issues[0]?.message;

/** The first rule the name breaks, or undefined. Unique against the existing names, ignoring case. */
export function commandNameProblem(name: string, existing: readonly string[]): string | undefined {
  const problem = firstProblem(commandNameSchema, name);
  if (problem) return problem;
  const trimmed = name.trim();
  const key = trimmed.toLowerCase();
  if (existing.some((other) => other.toLowerCase() === key)) return commandMessages.exists(trimmed);
  return undefined;
}

/** The first rule the response breaks, or undefined; the length message differs inline and on submit. */
export function responseProblem(response: string, when: 'inline' | 'submit'): string | undefined {
  const problem = firstProblem(commandResponseSchema, response);
  if (problem === commandMessages.responseTooLong && when === 'inline') return commandMessages.responseTooLongInline;
  return problem;
}

/** The inline wording of a response message (the length has its own, shorter while typing). */
export const inlineResponseMessage = (message: string | undefined): string | undefined =>
  message === commandMessages.responseTooLong ? commandMessages.responseTooLongInline : message;

/** Adds the message of `problem(value)` as the issue, if any. */
const checkedBy = (problem: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** The add-command form: the contract's rules for both fields, and the name unique in `existing`. */
export const newCommandSchema = (existing: readonly string[]) =>
  z.object({
    command: checkedBy((name) => commandNameProblem(name, existing)),
    response: checkedBy((response) => responseProblem(response, 'submit')),
  });
export type NewCommand = z.infer<ReturnType<typeof newCommandSchema>>;

/**
 * The edit-command dialog: the add form's rules, the cooldowns as typed, and the aliases (checked
 * against the name, so on the whole form).
 */
export const editedCommandSchema = (otherNames: readonly string[]) =>
  z
    .object({
      command: checkedBy((name) => commandNameProblem(name, otherNames)),
      response: checkedBy((response) => responseProblem(response, 'submit')),
      aliases: z.string(),
      permission: z.enum(commandPermissions),
      globalCooldown: checkedBy(cooldownProblem),
      userCooldown: checkedBy(cooldownProblem),
      modsExempt: z.boolean(),
    })
    .superRefine((form, ctx) => {
      const message = aliasesProblem(parseAliases(form.aliases), form.command);
      if (message) ctx.addIssue({ code: 'custom', message, path: ['aliases'] });
    });
export type EditedCommand = z.infer<ReturnType<typeof editedCommandSchema>>;
