import {
  importMessages,
  maxCommandsPerUser,
  type ImportApplyBody,
  type ImportPreview,
  type ImportPreviewBody,
  type ImportPreviewRow,
  type ImportResult,
  type ImportedPermission,
  type CommandPermission,
  maxCooldownSeconds,
} from '@kickstand/api-contract';
import { commandKey } from '@kickstand/chat-language';
import { AppError } from '@kickstand/platform/errors';
import { settingsOf, type AddCommandInput, type Commands } from '../commands';
import type { StoredCommand } from '../repository';
import { ImportFormatError } from './parsed-command';
import { previewImport } from './preview';

export interface CommandImport {
  /** What importing the text would do, row by row. Throws AppError 400 when it cannot be read. */
  preview(userId: string, body: ImportPreviewBody): Promise<ImportPreview>;
  /**
   * Imports the selected rows that have no problem, in one write (all or nothing). Selected rows
   * with a problem, or not in the export, are skipped with their reason. Throws AppError 409 when
   * the import would exceed the command limit: nothing is imported then.
   */
  apply(userId: string, body: ImportApplyBody): Promise<ImportResult>;
}

const unreadable = (error: unknown): never => {
  if (error instanceof ImportFormatError)
    throw new AppError({ code: 'import-unreadable', status: 400, message: error.message });
  throw error;
};

const overLimit = (existing: number, adding: number) =>
  new AppError({
    code: 'command-limit-reached',
    status: 409,
    message: importMessages.overLimit(existing, adding, maxCommandsPerUser),
  });

// an alias is a name taken as much as a command's own
const keysOf = (commands: readonly StoredCommand[]) =>
  new Set(commands.flatMap((command) => [command.nameLower, ...settingsOf(command).aliases.map(commandKey)]));

/** The other bots' user levels (singular, as their exports say them) in Kickstand's words. */
const permissionOf: Record<ImportedPermission, CommandPermission> = {
  everyone: 'everyone',
  subscriber: 'subscribers',
  vip: 'vips',
  moderator: 'moderators',
  broadcaster: 'broadcaster',
};
const cooldownOf = (seconds: number | undefined) =>
  seconds === undefined || !Number.isFinite(seconds)
    ? undefined
    : Math.min(maxCooldownSeconds, Math.max(0, Math.round(seconds)));

/** A previewed row as the command it adds: what the other bot's settings say, where Kickstand has them. */
const commandOf = ({ name, response, settings }: ImportPreviewRow): AddCommandInput => ({
  command: name,
  response,
  ...(settings.enabled !== undefined && { enabled: settings.enabled }),
  ...(settings.permission !== undefined && { permission: permissionOf[settings.permission] }),
  ...(cooldownOf(settings.globalCooldownSeconds) !== undefined && {
    globalCooldownSeconds: cooldownOf(settings.globalCooldownSeconds),
  }),
  ...(cooldownOf(settings.userCooldownSeconds) !== undefined && {
    userCooldownSeconds: cooldownOf(settings.userCooldownSeconds),
  }),
  ...(settings.aliases !== undefined && { aliases: settings.aliases }),
});

export function createCommandImport({
  commands,
  loadCommands,
}: {
  commands: Pick<Commands, 'addMany'>;
  /** The streamer's stored commands (for the preview's duplicates). */
  loadCommands: (userId: string) => Promise<readonly StoredCommand[]>;
}): CommandImport {
  const rowsOf = (body: ImportPreviewBody, existing: readonly StoredCommand[]) => {
    try {
      return previewImport(body.source, body.text, keysOf(existing));
    } catch (error) {
      return unreadable(error);
    }
  };

  return {
    preview: async (userId, body) => {
      const existing = await loadCommands(userId);
      return { rows: rowsOf(body, existing), existingCount: existing.length, maxCommands: maxCommandsPerUser };
    },

    apply: async (userId, body) => {
      const selected = new Set(body.names);
      let skipped: ImportResult['skipped'] = [];
      // decided on the commands the write is based on, so a duplicate cannot slip in meanwhile
      const { added, droppedAliases } = await commands.addMany(userId, (existing) => {
        const rows = rowsOf(body, existing).filter((row) => selected.has(row.name));
        const found = new Set(rows.map((row) => row.name));
        skipped = [
          ...rows.flatMap((row) => (row.problem ? [{ name: row.name, reason: row.problem }] : [])),
          ...body.names.filter((name) => !found.has(name)).map((name) => ({ name, reason: 'Not in this export.' })),
        ];
        const toAdd = rows.filter((row) => !row.problem);
        if (existing.length + toAdd.length > maxCommandsPerUser) throw overLimit(existing.length, toAdd.length);
        return toAdd.map(commandOf);
      });
      return { imported: added.map((command) => command.command), skipped, aliasesLeftOut: droppedAliases };
    },
  };
}
