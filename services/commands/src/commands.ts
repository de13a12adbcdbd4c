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
  defaultCommandSettings,
  maxAliasesPerCommand,
  maxCommandsPerUser,
  normalizeCommandName,
  responseProblem,
  type Command,
  type CommandSettings,
  type CommandSettingsInput,
} from '@kickstand/api-contract';

// The command's shape, limits, rules and messages are the HTTP contract's (the dashboard checks them too).
export {
  commandMessages,
  commandNameProblem,
  defaultCommandSettings,
  maxCommandNameLength,
  maxCommandsPerUser,
  maxResponseLength,
  normalizeCommandName,
  responseProblem,
  type Command,
  type CommandSettings,
} from '@kickstand/api-contract';

/** Spec §3: every new streamer starts with this command. */
export const defaultCommand: Command = {
  command: 'test',
  response: 'Hello! This is a test command. The bot is working correctly!',
  ...defaultCommandSettings,
};

const invalidCommand = (message: string) => new AppError({ code: 'command-invalid', status: 400, message });
const commandExists = (name: string) =>
  new AppError({ code: 'command-exists', status: 409, message: commandMessages.exists(name) });
const commandReserved = (name: string) =>
  new AppError({ code: 'command-reserved', status: 409, message: commandMessages.reserved(name) });
const aliasOf = (name: string, owner: string) =>
  new AppError({ code: 'command-alias-taken', status: 409, message: commandMessages.aliasOf(name, owner) });
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
  add(userId: string, input: AddCommandInput): Promise<Command>;
  /**
   * Changes the command named `name` (any letter case): what `changes` gives, with the rules of
   * adding (a new name must be free, also of aliases; aliases must be free and not built-in).
   * Publishes UPDATED with the name before the change. Throws AppError 400/404/409.
   */
  update(userId: string, name: string, changes: CommandChanges): Promise<Command>;
  /**
   * Adds several commands in one write, one ADDED each (the import). `choose` sees the current
   * commands and picks the ones to add; each must pass the add rules, and all of them must fit the
   * limit, else nothing is written (AppError 400/409). An alias that cannot be kept leaves the
   * command without it (listed in `droppedAliases`) rather than failing the whole write.
   */
  addMany(
    userId: string,
    choose: (existing: readonly StoredCommand[]) => AddCommandInput[],
  ): Promise<{ added: Command[]; droppedAliases: DroppedAlias[] }>;
  /** Removes by name in any letter case, publishes REMOVED. Throws AppError 400/404. */
  remove(userId: string, input: { command: string }): Promise<Command>;
  /** Gives a new streamer the default command once, ever: a replay or a later removal does not bring it back. */
  seedDefault(userId: string): Promise<void>;
  /** A deleted streamer's commands go, each with a REMOVED event. */
  removeAllOf(userId: string): Promise<void>;
}

/** A command to add: its name, response and the settings it does not leave to the defaults. */
export type AddCommandInput = { command: string; response: string } & CommandSettingsInput;

/** An alias that `addMany` left out (invalid, built-in or taken), and why. */
export interface DroppedAlias {
  command: string;
  alias: string;
  reason: string;
}

/** What an edit may change; a field left out keeps its value. */
export type CommandChanges = { command?: string; response?: string } & CommandSettingsInput;

/** What a change decides: the next commands and the messages they cause; null when nothing changes. */
type Decision = { commands: StoredCommand[]; changes: PendingCommandChange[] } | null;

const maxWriteAttempts = 5;

/** A command stored before settings existed has none: the defaults, which is how it behaved. */
export const settingsOf = (stored: StoredCommand): CommandSettings => ({
  ...defaultCommandSettings,
  ...stored.settings,
});

const toCommand = (stored: StoredCommand): Command => ({
  command: stored.name,
  response: stored.response,
  ...settingsOf(stored),
});

/** The name (or alias) `key` is taken by one of `others`: the spec's "already exists" for a name, ours for an alias. */
function takenProblem(typed: string, key: string, others: readonly StoredCommand[]): AppError | undefined {
  if (others.some((other) => other.nameLower === key)) return commandExists(typed);
  const owner = others.find((other) => settingsOf(other).aliases.some((alias) => commandKey(alias) === key));
  return owner ? aliasOf(typed, owner.name) : undefined;
}

/** A name (of a command or, with `asAlias`, of an alias) by itself: the spec's rules, then not built-in. */
function checkName(typed: string, asAlias = false): string {
  const name = normalizeCommandName(typed);
  const problem = commandNameProblem(name);
  if (problem) throw invalidCommand(asAlias ? commandMessages.aliasInvalid(name) : problem);
  // the bot leaves these to the games service: a custom command of that name would never answer
  if (builtInCommandNames.has(commandKey(name))) throw commandReserved(name);
  return name;
}

/**
 * The settings a change gives over `base`, checked: aliases are names by the same rules, not the
 * command's own name nor listed twice, not built-in, and not a name of `others`.
 */
function checkedSettings(
  name: string,
  base: CommandSettings,
  input: CommandSettingsInput,
  others: readonly StoredCommand[],
): CommandSettings {
  const settings: CommandSettings = { ...base };
  if (input.enabled !== undefined) settings.enabled = input.enabled;
  if (input.permission !== undefined) settings.permission = input.permission;
  if (input.globalCooldownSeconds !== undefined) settings.globalCooldownSeconds = input.globalCooldownSeconds;
  if (input.userCooldownSeconds !== undefined) settings.userCooldownSeconds = input.userCooldownSeconds;
  if (input.modsExempt !== undefined) settings.modsExempt = input.modsExempt;
  if (input.aliases !== undefined) {
    // the contract bounds the list; the domain holds the rule too (it is also called without HTTP)
    if (input.aliases.length > maxAliasesPerCommand) throw invalidCommand(commandMessages.tooManyAliases);
    const seen = new Set([commandKey(name)]);
    settings.aliases = input.aliases.map((typed) => {
      const alias = checkName(typed, true);
      const key = commandKey(alias);
      if (seen.has(key)) throw invalidCommand(commandMessages.aliasRepeated(alias));
      seen.add(key);
      const taken = takenProblem(alias, key, others);
      if (taken) throw taken;
      return alias;
    });
  }
  return settings;
}

/** Why `alias` cannot be one of `name`'s aliases among `others`, or undefined when it can. */
function aliasProblem(name: string, alias: string, others: readonly StoredCommand[]): string | undefined {
  try {
    checkedSettings(name, defaultCommandSettings, { aliases: [alias] }, others);
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

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
    settings: settingsOf(stored),
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

  const stored = (command: Pick<Command, 'command' | 'response'>, settings: CommandSettings): StoredCommand => ({
    name: command.command,
    nameLower: commandKey(command.command),
    response: command.response,
    createdAt: clock.now(),
    settings,
  });

  return {
    list: async (userId) => [...(await repo.load(userId)).commands].sort(byName).map(toCommand),

    add: async (userId, input) => {
      const name = checkName(input.command);
      let added: StoredCommand | undefined;
      await apply(userId, (commands) => {
        const taken = takenProblem(name, commandKey(name), commands);
        if (taken) throw taken;
        const problem = responseProblem(input.response);
        if (problem) throw invalidCommand(problem);
        const settings = checkedSettings(name, defaultCommandSettings, input, commands);
        if (commands.length >= maxCommandsPerUser) throw commandLimitReached();
        added = stored({ command: name, response: input.response }, settings);
        return { commands: [...commands, added], changes: [change('ADDED', added)] };
      });
      // decide either set it or threw; the check only satisfies the type
      if (!added) throw commandExists(name);
      return toCommand(added);
    },

    update: async (userId, currentName, changes) => {
      const name = normalizeCommandName(currentName);
      const nameProblem = commandNameProblem(name);
      if (nameProblem) throw invalidCommand(nameProblem);
      const key = commandKey(name);
      const nextName = changes.command === undefined ? undefined : checkName(changes.command);
      let updated: StoredCommand | undefined;
      await apply(userId, (commands) => {
        const current = commands.find((command) => command.nameLower === key);
        if (!current) throw commandNotFound(name);
        const others = commands.filter((command) => command !== current);
        const newName = nextName ?? current.name;
        if (nextName !== undefined) {
          const taken = takenProblem(nextName, commandKey(nextName), others);
          if (taken) throw taken;
        }
        const response = changes.response ?? current.response;
        const problem = responseProblem(response);
        if (problem) throw invalidCommand(problem);
        // a rename keeps the aliases, which must then differ from the new name too
        const settings = checkedSettings(
          newName,
          settingsOf(current),
          { ...changes, aliases: changes.aliases ?? settingsOf(current).aliases },
          others,
        );
        const next: StoredCommand = {
          name: newName,
          nameLower: commandKey(newName),
          response,
          createdAt: current.createdAt,
          settings,
        };
        updated = next;
        return {
          commands: commands.map((command) => (command === current ? next : command)),
          changes: [{ ...change('UPDATED', next), previousCommand: current.name }],
        };
      });
      if (!updated) throw commandNotFound(name);
      return toCommand(updated);
    },

    addMany: async (userId, choose) => {
      let added: StoredCommand[] = [];
      let droppedAliases: DroppedAlias[] = [];
      await apply(userId, (commands) => {
        added = [];
        droppedAliases = [];
        for (const input of choose(commands)) {
          const name = checkName(input.command);
          const others = [...commands, ...added];
          const taken = takenProblem(name, commandKey(name), others);
          if (taken) throw taken;
          const problem = responseProblem(input.response);
          if (problem) throw invalidCommand(problem);
          // another bot's alias may be a built-in or another command's name here: the command
          // comes without that alias rather than the whole import failing on it
          const seen = new Set<string>();
          const aliases = (input.aliases ?? []).filter((alias) => {
            const refused = seen.has(commandKey(alias))
              ? commandMessages.aliasRepeated(alias)
              : aliasProblem(name, alias, others);
            seen.add(commandKey(alias));
            if (refused) droppedAliases.push({ command: name, alias, reason: refused });
            return !refused;
          });
          const settings = checkedSettings(name, defaultCommandSettings, { ...input, aliases }, others);
          added.push(stored({ command: name, response: input.response }, settings));
        }
        if (added.length === 0) return null;
        if (commands.length + added.length > maxCommandsPerUser) throw commandLimitReached();
        return { commands: [...commands, ...added], changes: added.map((command) => change('ADDED', command)) };
      });
      return { added: added.map(toCommand), droppedAliases };
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
        const seeded = stored(defaultCommand, defaultCommandSettings);
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
