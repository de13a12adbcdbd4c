import type { ImportedPermission, ImportedSettings } from '@kickstand/api-contract';
import {
  aliasList,
  booleanField,
  commandArray,
  definedSettings,
  isRecord,
  parseJson,
  seconds,
  stringField,
  type ParsedCommand,
} from './parsed-command';

/**
 * StreamElements' custom commands as its API lists them (the JSON one saves from the dashboard):
 * an array (or `{ commands: [...] }`) of `{ command, reply, aliases, enabled, accessLevel,
 * cooldown: { user, global } }`; other fields (cost, keywords, type…) are ignored. Pure.
 */
export function parseStreamElements(text: string): ParsedCommand[] {
  return commandArray(parseJson(text.trim()))
    .filter(isRecord)
    .map((record) => {
      const cooldown = isRecord(record['cooldown']) ? record['cooldown'] : {};
      return {
        name: stringField(record, ['command', 'name']) ?? '',
        response: stringField(record, ['reply', 'response']) ?? '',
        settings: definedSettings({
          enabled: booleanField(record['enabled']),
          globalCooldownSeconds: seconds(cooldown['global']),
          userCooldownSeconds: seconds(cooldown['user']),
          aliases: aliasList(record['aliases']),
          ...accessLevel(record['accessLevel']),
        }),
      };
    });
}

/**
 * StreamElements' levels: 100 everyone, 250 subscriber, 300 regular, 400 VIP, 500 moderator,
 * 1000 super moderator, 1500 broadcaster. Regular (its own trusted list) has no Kick badge.
 */
function accessLevel(value: unknown): Pick<ImportedSettings, 'permission' | 'permissionAsExported'> {
  if (typeof value !== 'number') return {};
  const steps: Array<[number, ImportedPermission]> = [
    [1500, 'broadcaster'],
    [500, 'moderator'],
    [400, 'vip'],
  ];
  const permission = steps.find(([level]) => value >= level)?.[1];
  if (permission) return { permission };
  if (value >= 300) return { permissionAsExported: `regular (${value})` };
  return { permission: value >= 250 ? 'subscriber' : 'everyone' };
}
