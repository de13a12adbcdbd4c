import type { ImportedPermission, ImportedSettings } from '@kickstand/api-contract';

/** One command read from an export, before its name is checked and its variables are translated. */
export interface ParsedCommand {
  /** The name as the export has it (maybe with `!`). */
  name: string;
  /** The response with the other bot's variables. */
  response: string;
  settings: ImportedSettings;
}

/** The export cannot be read at all (not JSON, no columns…): a 400 with this message. */
export class ImportFormatError extends Error {}

/** A JSON export, or an ImportFormatError naming the problem. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ImportFormatError(
      `The text is not valid JSON (${error instanceof Error ? error.message : 'unreadable'}).`,
    );
  }
}

/** The list of commands: the array itself, or the array under `commands` / `data` (API-shaped exports). */
export function commandArray(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  if (json && typeof json === 'object') {
    for (const key of ['commands', 'data']) {
      const value = (json as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value;
    }
  }
  throw new ImportFormatError('The JSON holds no list of commands (expected an array, or one under "commands").');
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first of `keys` holding a string (numbers are written out). */
export function stringField(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string') return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

/** A whole number of seconds ≥ 0 from a number or a numeric string; undefined otherwise. */
export function seconds(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? Math.round(number) : undefined;
}

export function booleanField(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'yes') return true;
  if (value === 'false' || value === 'no') return false;
  return undefined;
}

/** Names as text, without `!`; anything that is not a string is left out. */
export const aliasList = (value: unknown): string[] | undefined =>
  Array.isArray(value)
    ? value.filter((alias): alias is string => typeof alias === 'string').map((alias) => alias.replace(/^[!$]/, ''))
    : undefined;

/** Leaves out the settings the export did not give, so the preview shows only what it had. */
export function definedSettings(settings: {
  [K in keyof ImportedSettings]: ImportedSettings[K] | undefined;
}): ImportedSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as ImportedSettings;
}

/** A permission written in words (`Moderator`, `owner`, `twitch_vip`, `subs`…) → Kickstand's, or as exported. */
export function permissionFromWords(
  value: string | undefined,
): Pick<ImportedSettings, 'permission' | 'permissionAsExported'> {
  if (value === undefined || value.trim() === '') return {};
  const words = value.trim().toLowerCase();
  const mapped: Array<[RegExp, ImportedPermission]> = [
    [/^(everyone|everybody|all|viewers?|public)$/, 'everyone'],
    [/^(subs?|subscribers?)$/, 'subscriber'],
    [/^(twitch_)?vips?$/, 'vip'],
    [/^(mods?|moderators?)$/, 'moderator'],
    [/^(owner|broadcaster|streamer)( only)?$/, 'broadcaster'],
  ];
  const permission = mapped.find(([pattern]) => pattern.test(words))?.[1];
  return permission ? { permission } : { permissionAsExported: value.trim() };
}
