import { builtInCommandNames, commandKey } from '@kickstand/chat-language';
import type { Clock } from '@kickstand/platform/clock';
import { randomUUID } from 'node:crypto';
import { AppError, unavailable } from '@kickstand/platform/errors';
import type { KeyedQueue } from '@kickstand/platform/keyed-queue';
import type { OutboxRelay } from '@kickstand/platform/outbox';
import type { CommandSetDoc, CommandsRepository, PendingCommandChange, StoredCommand } from './repository';
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

const invalidCommand = (message: string) => new AppError({ code: 'command-invalid', status: 400, message });
const commandExists = (name: string) =>
  new AppError({ code: 'command-exists', status: 409, message: commandMessages.exists(name) });
const commandReserved = (name: string) =>
  new AppError({ code: 'command-reserved', status: 409, message: commandMessages.reserved(name) });
const commandNotFound = (name: string) =>
  new AppError({ code: 'command-not-found', status: 404, message: commandMessages.notFound(name) });
// 409, not 422: the request itself is valid and would succeed once the streamer removes a command,
// which is RFC 9110's "conflict with the current state of the target resource" that the user can resolve.
const commandLimitReached = () =>
  new AppError({ code: 'command-limit-reached', status: 409, message: commandMessages.limitReached });

export interface Commands {
  /** The streamer's commands, ordered by name regardless of letter case. */
  list(userId: string): Promise<Command[]>;
  /** Validates in the spec's order, stores, publishes ADDED. Throws AppError 400/409. */
  add(userId: string, input: { command: string; response: string }): Promise<Command>;
  /**
   * Adds several commands in one write, one ADDED each (the import). `choose` sees the current
   * commands and picks the ones to add; each must pass the add rules, and all of them must fit the
   * limit, else nothing is written (AppError 400/409).
   */
  addMany(userId: string, choose: (existing: readonly StoredCommand[]) => Command[]): Promise<Command[]>;
  /** Removes by name in any letter case, publishes REMOVED. Throws AppError 400/404. */
  remove(userId: string, input: { command: string }): Promise<Command>;
  /** Gives a new streamer the default command once, ever: a replay or a later removal does not bring it back. */
  seedDefault(userId: string): Promise<void>;
  /** A deleted streamer's commands go, each with a REMOVED event. */
  removeAllOf(userId: string): Promise<void>;
}

/** What a change decides: the next commands and the messages they cause; null when nothing changes. */
type Decision = { commands: StoredCommand[]; changes: PendingCommandChange[] } | null;

const maxWriteAttempts = 5;

const toCommand = (stored: StoredCommand): Command => ({ command: stored.name, response: stored.response });
const byName = (a: StoredCommand, b: StoredCommand) =>
  a.nameLower < b.nameLower ? -1 : a.nameLower > b.nameLower ? 1 : 0;

/**
 * The use cases. Each change reads the streamer's set, decides (or throws the spec's error), writes
 * the next commands with their command.changed messages on the version it read, and then has the
 * outbox relay publish them. Within this process one streamer's changes run one at a time (the
 * queue the relay shares); between instances the version decides and a stale write is retried.
 */
export function createCommands({
  repo,
  outbox,
  queue,
  clock,
}: {
  repo: CommandsRepository;
  outbox: Pick<OutboxRelay<CommandSetDoc>, 'publishFrom'>;
  queue: KeyedQueue;
  clock: Clock;
}): Commands {
  const change = (kind: PendingCommandChange['kind'], stored: StoredCommand): PendingCommandChange => ({
    eventId: randomUUID(),
    kind,
    command: stored.name,
    response: stored.response,
    occurredAt: clock.now(),
  });

  function apply(userId: string, decide: (commands: readonly StoredCommand[]) => Decision): Promise<void> {
    return queue.run(userId, async () => {
      for (let attempt = 1; ; attempt++) {
        const set = await repo.load(userId);
        const decision = decide(set.commands);
        if (!decision) {
          if (set.outbox.length > 0) await outbox.publishFrom(set);
          return;
        }
        const written = await repo.save(userId, set.version, decision.commands, decision.changes);
        if (written) {
          await outbox.publishFrom(written);
          return;
        }
        if (attempt >= maxWriteAttempts)
          throw unavailable('commands-write-conflict', 'Your commands are busy. Try again.', 1);
      }
    });
  }

  const stored = (command: Command): StoredCommand => ({
    name: command.command,
    nameLower: commandKey(command.command),
    response: command.response,
    createdAt: clock.now(),
  });

  return {
    list: async (userId) => [...(await repo.load(userId)).commands].sort(byName).map(toCommand),

    add: async (userId, input) => {
      const name = normalizeCommandName(input.command);
      const nameProblem = commandNameProblem(name);
      if (nameProblem) throw invalidCommand(nameProblem);
      // the bot leaves these to the games service: a custom command of that name would never answer
      if (builtInCommandNames.has(commandKey(name))) throw commandReserved(name);
      const added = stored({ command: name, response: input.response });
      await apply(userId, (commands) => {
        if (commands.some((command) => command.nameLower === added.nameLower)) throw commandExists(name);
        const problem = responseProblem(input.response);
        if (problem) throw invalidCommand(problem);
        if (commands.length >= maxCommandsPerUser) throw commandLimitReached();
        return { commands: [...commands, added], changes: [change('ADDED', added)] };
      });
      return toCommand(added);
    },

    addMany: async (userId, choose) => {
      let added: StoredCommand[] = [];
      await apply(userId, (commands) => {
        const taken = new Set(commands.map((command) => command.nameLower));
        added = choose(commands).map((command) => {
          const name = normalizeCommandName(command.command);
          const problem = commandNameProblem(name) ?? responseProblem(command.response);
          if (problem) throw invalidCommand(problem);
          if (builtInCommandNames.has(commandKey(name))) throw commandReserved(name);
          if (taken.has(commandKey(name))) throw commandExists(name);
          taken.add(commandKey(name));
          return stored({ command: name, response: command.response });
        });
        if (added.length === 0) return null;
        if (commands.length + added.length > maxCommandsPerUser) throw commandLimitReached();
        return { commands: [...commands, ...added], changes: added.map((command) => change('ADDED', command)) };
      });
      return added.map(toCommand);
    },

    remove: async (userId, input) => {
      const name = normalizeCommandName(input.command);
      const nameProblem = commandNameProblem(name);
      if (nameProblem) throw invalidCommand(nameProblem);
      const key = commandKey(name);
      let removed: StoredCommand | undefined;
      await apply(userId, (commands) => {
        removed = commands.find((command) => command.nameLower === key);
        if (!removed) throw commandNotFound(name);
        return { commands: commands.filter((command) => command !== removed), changes: [change('REMOVED', removed)] };
      });
      if (!removed) throw commandNotFound(name);
      return toCommand(removed);
    },

    seedDefault: async (userId) => {
      if (await repo.isSeeded(userId)) return;
      // The effect and its message first, then the mark: a crash in between makes a replay do it
      // again, which finds the command there and only announces it once more.
      await apply(userId, (commands) => {
        const existing = commands.find((command) => command.nameLower === commandKey(defaultCommand.command));
        if (existing) return { commands: [...commands], changes: [change('ADDED', existing)] };
        const seeded = stored(defaultCommand);
        return { commands: [...commands, seeded], changes: [change('ADDED', seeded)] };
      });
      await repo.markSeeded(userId, clock.now());
    },

    removeAllOf: (userId) =>
      apply(userId, (commands) =>
        commands.length === 0 ? null : { commands: [], changes: commands.map((command) => change('REMOVED', command)) },
      ),
  };
}
