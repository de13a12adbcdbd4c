import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { ChangeKind, CommandChangedSchema, CommandPermission } from './index';
import { commandSettingsDefaults, commandSettingsFromProto, commandSettingsToProto } from './command-settings';

describe('command settings on command.changed', () => {
  test('when an event from before settings is decoded, then every setting is its default', () => {
    const old = create(CommandChangedSchema, { userId: 'u', kind: ChangeKind.ADDED, command: 'hi', response: 'hello' });
    const decoded = fromBinary(CommandChangedSchema, toBinary(CommandChangedSchema, old));

    expect(commandSettingsFromProto(decoded.settings)).toEqual({
      enabled: true,
      aliases: [],
      permission: 'everyone',
      globalCooldownSeconds: 1,
      userCooldownSeconds: 0,
      modsExempt: true,
    });
  });

  test('when settings with zeros and falses go over the wire, then they come back as set, not as defaults', () => {
    const values = {
      enabled: false,
      aliases: ['dc'],
      permission: 'moderators' as const,
      globalCooldownSeconds: 0,
      userCooldownSeconds: 0,
      modsExempt: false,
    };
    const message = create(CommandChangedSchema, { settings: commandSettingsToProto(values) });
    const decoded = fromBinary(CommandChangedSchema, toBinary(CommandChangedSchema, message));

    expect(decoded.settings?.permission).toBe(CommandPermission.MODERATORS);
    expect(commandSettingsFromProto(decoded.settings)).toEqual(values);
  });

  test('when the permission is unspecified or unknown, then it reads as everyone', () => {
    expect(commandSettingsFromProto(commandSettingsToProto(commandSettingsDefaults)).permission).toBe('everyone');
    const unknown = { ...commandSettingsToProto(commandSettingsDefaults), permission: 99 as CommandPermission };
    expect(commandSettingsFromProto(unknown).permission).toBe('everyone');
  });
});
