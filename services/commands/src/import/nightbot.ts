import { parseCsv } from './csv';
import {
  commandArray,
  definedSettings,
  ImportFormatError,
  isRecord,
  parseJson,
  permissionFromWords,
  seconds,
  stringField,
  type ParsedCommand,
} from './parsed-command';

/**
 * Nightbot's custom commands, as its API and export give them: JSON (`{ commands: [...] }` or an
 * array) of `{ name, message, coolDown, userLevel, count }`, or CSV with a header row naming the
 * columns (Name, Message, Cooldown, User Level; others are ignored). Pure.
 */
export function parseNightbot(text: string): ParsedCommand[] {
  const trimmed = text.trim();
  return trimmed.startsWith('[') || trimmed.startsWith('{') ? fromJson(trimmed) : fromCsv(trimmed);
}

function fromJson(text: string): ParsedCommand[] {
  return commandArray(parseJson(text))
    .filter(isRecord)
    .map((record) =>
      toCommand({
        name: stringField(record, ['name']),
        message: stringField(record, ['message']),
        coolDown: record['coolDown'] ?? record['cooldown'],
        userLevel: stringField(record, ['userLevel']),
      }),
    );
}

const columnAliases = {
  name: ['name', 'command'],
  message: ['message', 'response'],
  coolDown: ['cooldown', 'cool down'],
  userLevel: ['userlevel', 'user level'],
} as const;

function fromCsv(text: string): ParsedCommand[] {
  const [header, ...rows] = parseCsv(text);
  const columns = (header ?? []).map((cell) => cell.trim().toLowerCase());
  const indexOf = (names: readonly string[]) => columns.findIndex((column) => names.includes(column));
  const name = indexOf(columnAliases.name);
  const message = indexOf(columnAliases.message);
  if (name === -1 || message === -1)
    throw new ImportFormatError('The CSV needs a header row with a Name and a Message column.');
  const coolDown = indexOf(columnAliases.coolDown);
  const userLevel = indexOf(columnAliases.userLevel);
  return rows.map((row) =>
    toCommand({
      name: row[name],
      message: row[message],
      coolDown: coolDown === -1 ? undefined : row[coolDown],
      userLevel: userLevel === -1 ? undefined : row[userLevel],
    }),
  );
}

function toCommand(fields: {
  name: string | undefined;
  message: string | undefined;
  coolDown: unknown;
  userLevel: string | undefined;
}): ParsedCommand {
  // Nightbot's "regular" is its own list of trusted viewers: Kick has no badge for it
  return {
    name: fields.name ?? '',
    response: fields.message ?? '',
    settings: definedSettings({
      enabled: undefined,
      globalCooldownSeconds: seconds(fields.coolDown),
      userCooldownSeconds: undefined,
      aliases: undefined,
      ...permissionFromWords(fields.userLevel),
    }),
  };
}
