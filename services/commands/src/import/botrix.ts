import {
  aliasList,
  booleanField,
  commandArray,
  definedSettings,
  isRecord,
  parseJson,
  permissionFromWords,
  seconds,
  stringField,
  type ParsedCommand,
} from './parsed-command';

/**
 * BotRix: its JSON export, read leniently (an array, or one under `commands`, of objects naming
 * the command `name`/`command`/`trigger` and the answer `response`/`reply`/`message`), or a
 * copy-paste of the command list from its dashboard: one command a line, the cells separated by
 * tabs (a table copied from a browser) — name, response, then cooldown and permission if present —
 * or `!name response` when there are no tabs. A header line (`Command`, `Name`) is skipped. Pure.
 */
export function parseBotrix(text: string): ParsedCommand[] {
  const trimmed = text.trim();
  return trimmed.startsWith('[') || trimmed.startsWith('{') ? fromJson(trimmed) : fromPaste(trimmed);
}

function fromJson(text: string): ParsedCommand[] {
  return commandArray(parseJson(text))
    .filter(isRecord)
    .map((record) => ({
      name: stringField(record, ['name', 'command', 'trigger']) ?? '',
      response: stringField(record, ['response', 'reply', 'message', 'text']) ?? '',
      settings: definedSettings({
        enabled: booleanField(record['enabled'] ?? record['active']),
        globalCooldownSeconds: seconds(record['cooldown'] ?? record['globalCooldown']),
        userCooldownSeconds: seconds(record['userCooldown']),
        aliases: aliasList(record['aliases']),
        ...permissionFromWords(stringField(record, ['permission', 'userLevel', 'level'])),
      }),
    }));
}

const headerNames = new Set(['command', 'name', 'trigger']);

function fromPaste(text: string): ParsedCommand[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => (line.includes('\t') ? line.split('\t').map((cell) => cell.trim()) : splitFirstWord(line.trim())))
    .filter(([name]) => !headerNames.has((name ?? '').toLowerCase()))
    .map(([name = '', response = '', cooldown, permission]) => ({
      name,
      response,
      settings: definedSettings({
        enabled: undefined,
        globalCooldownSeconds: seconds(cooldown),
        userCooldownSeconds: undefined,
        aliases: undefined,
        ...permissionFromWords(permission),
      }),
    }));
}

function splitFirstWord(line: string): string[] {
  const space = line.search(/\s/);
  return space === -1 ? [line, ''] : [line.slice(0, space), line.slice(space).trim()];
}
