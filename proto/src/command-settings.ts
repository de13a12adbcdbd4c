import { create } from '@bufbuild/protobuf';
import {
  CommandPermission,
  CommandSettingsSchema,
  type CommandSettings,
} from './gen/kickstand/events/v1/command_changed_pb';

/** Who may run a command, as the HTTP contract names the levels. */
export type CommandPermissionName = 'everyone' | 'subscribers' | 'vips' | 'moderators' | 'broadcaster';

/** A command's settings as plain values (the HTTP contract's CommandSettings has this shape). */
export interface CommandSettingsValues {
  enabled: boolean;
  aliases: string[];
  permission: CommandPermissionName;
  globalCooldownSeconds: number;
  userCooldownSeconds: number;
  modsExempt: boolean;
}

/**
 * What an unset field means (command_changed.proto): how commands behaved before they had settings.
 * The HTTP contract's defaultCommandSettings are the same values (a commands test holds them equal).
 */
export const commandSettingsDefaults: Readonly<CommandSettingsValues> = {
  enabled: true,
  aliases: [],
  permission: 'everyone',
  globalCooldownSeconds: 1,
  userCooldownSeconds: 0,
  modsExempt: true,
};

const permissionOf: Record<CommandPermissionName, CommandPermission> = {
  everyone: CommandPermission.EVERYONE,
  subscribers: CommandPermission.SUBSCRIBERS,
  vips: CommandPermission.VIPS,
  moderators: CommandPermission.MODERATORS,
  broadcaster: CommandPermission.BROADCASTER,
};

const permissionNameOf: Partial<Record<CommandPermission, CommandPermissionName>> = {
  [CommandPermission.EVERYONE]: 'everyone',
  [CommandPermission.SUBSCRIBERS]: 'subscribers',
  [CommandPermission.VIPS]: 'vips',
  [CommandPermission.MODERATORS]: 'moderators',
  [CommandPermission.BROADCASTER]: 'broadcaster',
};

/** The settings for command.changed; every field is set, so a consumer never guesses a default. */
export function commandSettingsToProto(values: CommandSettingsValues): CommandSettings {
  return create(CommandSettingsSchema, { ...values, permission: permissionOf[values.permission] });
}

/**
 * The settings a command.changed carries, each unset field (an event from before settings, or a
 * newer producer's unknown permission: the most restrictive level would silence a command, so
 * unknown reads as unset) given its default.
 */
export function commandSettingsFromProto(settings: CommandSettings | undefined): CommandSettingsValues {
  const defaults = commandSettingsDefaults;
  return {
    enabled: settings?.enabled ?? defaults.enabled,
    aliases: [...(settings?.aliases ?? defaults.aliases)],
    permission: (settings && permissionNameOf[settings.permission]) ?? defaults.permission,
    globalCooldownSeconds: settings?.globalCooldownSeconds ?? defaults.globalCooldownSeconds,
    userCooldownSeconds: settings?.userCooldownSeconds ?? defaults.userCooldownSeconds,
    modsExempt: settings?.modsExempt ?? defaults.modsExempt,
  };
}
