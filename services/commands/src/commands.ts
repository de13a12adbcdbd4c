import type { Clock } from '@kickstand/platform/clock';
import { AppError } from '@kickstand/platform/errors';
import { DuplicateKeyError } from '@kickstand/platform/store';
import type { CommandDoc, CommandsRepository } from './repository';
import {
  commandMessages,
  commandNameProblem,
  maxCommandsPerUser,
  normalizeCommandName,
  responseProblem,
  type Command,
} from '@kickstand/api-contract';

// The command's shape, limits, rules and messages are the HTTP contract's (the dashboard checks them too).
export {
  commandMessages,
  commandNameProblem,
  maxCommandNameLength,
  maxCommandsPerUser,
  maxResponseLength,
  normalizeCommandName,
  responseProblem,
  type Command,
} from '@kickstand/api-contract';

/** Spec §3: every new streamer starts with this command. */
export const defaultCommand: Command = {
  command: 'test',
  response: 'Hello! This is a test command. The bot is working correctly!',
};

/** Names are unique per streamer regardless of letter case: this is the key they are matched by. */
export function commandKey(name: string): string {
  return name.toLowerCase();
}

const invalidCommand = (message: string) => new AppError({ code: 'command-invalid', status: 400, message });
const commandExists = (name: string) =>
  new AppError({ code: 'command-exists', status: 409, message: commandMessages.exists(name) });
const commandNotFound = (name: string) =>
  new AppError({ code: 'command-not-found', status: 404, message: commandMessages.notFound(name) });
// 409, not 422: the request itself is valid and would succeed once the streamer removes a command,
// which is RFC 9110's "conflict with the current state of the target resource" that the user can resolve.
const commandLimitReached = () =>
  new AppError({ code: 'command-limit-reached', status: 409, message: commandMessages.limitReached });

/** Where command.changed goes out (events.ts); called after the store write. */
export interface CommandChanges {
  added(userId: string, command: Command): Promise<void>;
  removed(userId: string, command: Command): Promise<void>;
}

export interface Commands {
  /** The streamer's commands, ordered by name regardless of letter case. */
  list(userId: string): Promise<Command[]>;
  /** Validates in the spec's order, stores, publishes ADDED. Throws AppError 400/409. */
  add(userId: string, input: { command: string; response: string }): Promise<Command>;
  /** Removes by name in any letter case, publishes REMOVED. Throws AppError 400/404. */
  remove(userId: string, input: { command: string }): Promise<Command>;
  /** Gives a new streamer the default command once, ever: a replay or a later removal does not bring it back. */
  seedDefault(userId: string): Promise<void>;
  /** A deleted streamer's commands go, each with a REMOVED event. */
  removeAllOf(userId: string): Promise<void>;
}

const toCommand = (doc: CommandDoc): Command => ({ command: doc.name, response: doc.response });

export function createCommands({
  repo,
  changes,
  clock,
}: {
  repo: CommandsRepository;
  changes: CommandChanges;
  clock: Clock;
}): Commands {
  async function insert(userId: string, command: Command): Promise<CommandDoc> {
    return repo.insert({
      userId,
      name: command.command,
      nameLower: commandKey(command.command),
      response: command.response,
      createdAt: clock.now(),
    });
  }

  return {
    list: async (userId) => (await repo.list(userId)).map(toCommand),

    add: async (userId, input) => {
      const name = normalizeCommandName(input.command);
      const nameProblem = commandNameProblem(name);
      if (nameProblem) throw invalidCommand(nameProblem);
      if (await repo.findByKey(userId, commandKey(name))) throw commandExists(name);
      const problem = responseProblem(input.response);
      if (problem) throw invalidCommand(problem);
      // Checked, then written: a burst of parallel requests from one streamer can pass the limit by a
      // few, which is harmless; a name taken in the meantime is still caught by the unique index.
      if ((await repo.count(userId)) >= maxCommandsPerUser) throw commandLimitReached();
      let saved: CommandDoc;
      try {
        saved = await insert(userId, { command: name, response: input.response });
      } catch (error) {
        if (error instanceof DuplicateKeyError) throw commandExists(name);
        throw error;
      }
      const command = toCommand(saved);
      await changes.added(userId, command);
      return command;
    },

    remove: async (userId, input) => {
      const name = normalizeCommandName(input.command);
      const nameProblem = commandNameProblem(name);
      if (nameProblem) throw invalidCommand(nameProblem);
      const found = await repo.findByKey(userId, commandKey(name));
      // a parallel removal may win between the read and the delete: then it is gone for this one too
      if (!found || !(await repo.removeById(found._id))) throw commandNotFound(name);
      const command = toCommand(found);
      await changes.removed(userId, command);
      return command;
    },

    seedDefault: async (userId) => {
      if (await repo.isSeeded(userId)) return;
      // The effect first, then the mark: a crash in between makes a replay do it again, and the
      // unique index makes that second insert a no-op.
      try {
        await insert(userId, defaultCommand);
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
      // Published from what is stored, also on a replay: the first attempt may have crashed before publishing.
      const stored = await repo.findByKey(userId, commandKey(defaultCommand.command));
      if (stored) await changes.added(userId, toCommand(stored));
      await repo.markSeeded(userId, clock.now());
    },

    removeAllOf: async (userId) => {
      // One at a time, each delete followed by its event, so a replay after a crash finishes the rest.
      for (const doc of await repo.list(userId)) {
        if (await repo.removeById(doc._id)) await changes.removed(userId, toCommand(doc));
      }
    },
  };
}
