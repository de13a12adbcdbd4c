import {
  commandMessages,
  commandNameProblem,
  importMessages,
  maxResponseLength,
  type ImportPreviewRow,
  type ImportSource,
} from '@kickstand/api-contract';
import { builtInCommandNames, commandKey } from '@kickstand/chat-language';
import { parseBotrix } from './botrix';
import { parseNightbot } from './nightbot';
import { ImportFormatError, type ParsedCommand } from './parsed-command';
import { parseStreamElements } from './streamelements';
import { botrixDialect, nightbotDialect, streamElementsDialect, translateVariables, type Dialect } from './variables';

const readers: Record<ImportSource, { parse: (text: string) => ParsedCommand[]; dialect: Dialect }> = {
  nightbot: { parse: parseNightbot, dialect: nightbotDialect },
  streamelements: { parse: parseStreamElements, dialect: streamElementsDialect },
  botrix: { parse: parseBotrix, dialect: botrixDialect },
};

export const importProblems = {
  duplicateInExport: (name: string) => `"${name}" is listed more than once in this export; only the first is imported.`,
  exists: (name: string) => `${commandMessages.exists(name)} Skipped (remove it first to replace it).`,
  responseTooLong: (length: number) =>
    `The response is ${length} characters after translation; at most ${maxResponseLength} are allowed.`,
} as const;

/** Another bot's name → Kickstand's: without blanks around it and without its prefix (`!`, or `$`). */
export const importedName = (name: string): string => name.trim().replace(/^[!$]/, '');

/**
 * The preview of an export (pure): each command read, its name as Kickstand keeps it, the response
 * with the variables translated, and the first reason it cannot be imported, if any (the add
 * rules, then a name already taken in `existingKeys` or earlier in the export). Throws
 * ImportFormatError when the text cannot be read at all or holds no command.
 */
export function previewImport(
  source: ImportSource,
  text: string,
  existingKeys: ReadonlySet<string>,
): ImportPreviewRow[] {
  const reader = readers[source];
  // a file saved by Excel or Notepad may start with a byte order mark, which JSON and the CSV header do not expect
  const parsed = reader.parse(text.replace(/^\uFEFF/, ''));
  if (parsed.length === 0) throw new ImportFormatError(importMessages.nothingFound);
  const seen = new Set<string>();
  return parsed.map((command) => {
    const name = importedName(command.name);
    const translation = translateVariables(command.response, reader.dialect);
    const key = commandKey(name);
    const problem = rowProblem(name, key, translation.response, existingKeys, seen);
    seen.add(key);
    return {
      name,
      originalName: command.name,
      response: translation.response,
      translatedVariables: translation.translated,
      untranslatable: translation.untranslatable,
      settings: command.settings,
      ...(problem ? { problem } : {}),
    };
  });
}

function rowProblem(
  name: string,
  key: string,
  response: string,
  existingKeys: ReadonlySet<string>,
  seen: ReadonlySet<string>,
): string | undefined {
  const nameProblem = commandNameProblem(name);
  if (nameProblem) return nameProblem;
  if (builtInCommandNames.has(key)) return commandMessages.reserved(name);
  if (response.trim() === '') return commandMessages.responseRequired;
  if (response.length > maxResponseLength) return importProblems.responseTooLong(response.length);
  if (existingKeys.has(key)) return importProblems.exists(name);
  if (seen.has(key)) return importProblems.duplicateInExport(name);
  return undefined;
}
