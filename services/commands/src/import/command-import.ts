import {
  importMessages,
  maxCommandsPerUser,
  type ImportApplyBody,
  type ImportPreview,
  type ImportPreviewBody,
  type ImportResult,
} from '@kickstand/api-contract';
import { AppError } from '@kickstand/platform/errors';
import type { Commands } from '../commands';
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

const keysOf = (commands: readonly StoredCommand[]) => new Set(commands.map((command) => command.nameLower));

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
      const added = await commands.addMany(userId, (existing) => {
        const rows = rowsOf(body, existing).filter((row) => selected.has(row.name));
        const found = new Set(rows.map((row) => row.name));
        skipped = [
          ...rows.flatMap((row) => (row.problem ? [{ name: row.name, reason: row.problem }] : [])),
          ...body.names.filter((name) => !found.has(name)).map((name) => ({ name, reason: 'Not in this export.' })),
        ];
        const toAdd = rows.filter((row) => !row.problem);
        if (existing.length + toAdd.length > maxCommandsPerUser) throw overLimit(existing.length, toAdd.length);
        return toAdd.map((row) => ({ command: row.name, response: row.response }));
      });
      return { imported: added.map((command) => command.command), skipped };
    },
  };
}
