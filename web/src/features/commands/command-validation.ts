import { maxResponseLength } from '../../config/constants';

// Spec §5: the add-command checks, each list in the spec's order.

export const commandMessages = {
  nameRequired: 'Command name is required.',
  singleWord: 'Command must be a single word (no spaces allowed).',
  invalidCharacters: 'Command can only contain letters, numbers, hyphens, and underscores.',
  exists: (name: string) => `Command "${name}" already exists.`,
  responseRequired: 'Response text is required.',
  /** Shown under the field while typing. */
  responseTooLongInline: `Response must be ${maxResponseLength} characters or less`,
  /** Shown when the form is sent. */
  responseTooLongOnSubmit: `Response text must be ${maxResponseLength} characters or less`,
  added: (name: string) => `Command "${name}" added successfully!`,
  removed: (name: string) => `Command "${name}" removed successfully!`,
  addFailed: 'Failed to add command. Please try again.',
  removeFailed: 'Failed to remove command. Please try again.',
  /** Spec §5 writes `${name}`: the $ prefix followed by the name. */
  confirmRemove: (name: string) => `Are you sure you want to remove the command $${name}?`,
} as const;

/** The first rule the name breaks, or undefined. Unique against the existing names, ignoring case. */
export function commandNameProblem(name: string, existing: readonly string[]): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return commandMessages.nameRequired;
  if (/\s/.test(trimmed)) return commandMessages.singleWord;
  if (!/^[A-Za-z0-9_-]+$/.test(trimmed)) return commandMessages.invalidCharacters;
  const key = trimmed.toLowerCase();
  if (existing.some((other) => other.toLowerCase() === key)) return commandMessages.exists(trimmed);
  return undefined;
}

/** The first rule the response breaks, or undefined; the length message differs inline and on submit. */
export function responseProblem(response: string, when: 'inline' | 'submit'): string | undefined {
  if (response.trim() === '') return commandMessages.responseRequired;
  if (response.length > maxResponseLength) {
    return when === 'inline' ? commandMessages.responseTooLongInline : commandMessages.responseTooLongOnSubmit;
  }
  return undefined;
}
