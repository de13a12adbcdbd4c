/** The prefix that turns a chat line into a command (spec §9: fixed `$`). */
export const commandPrefix = '$';

export interface ChatCommand {
  /** The first word without the `$`, lowercased: the key to look the command up by. */
  name: string;
  /** The words after the name, split on whitespace; empty when there are none. */
  args: string[];
}

/**
 * Reads a chat line as a command: `"$Hello world"` → `{ name: 'hello', args: ['world'] }`.
 * Null when the line does not start with `$` or when no name follows it directly (`"$"`, `"$ hi"`).
 * Pure: bot-runner's dispatch reads chat with it.
 */
export function parseChatCommand(content: string): ChatCommand | null {
  if (!content.startsWith(commandPrefix)) return null;
  const [first = '', ...rest] = content.slice(commandPrefix.length).split(/\s+/);
  if (first === '') return null;
  return { name: first.toLowerCase(), args: rest.filter((word) => word !== '') };
}

/** Names are unique per streamer regardless of letter case: this is the key commands are matched by. */
export function commandKey(name: string): string {
  return name.toLowerCase();
}

/**
 * The built-in commands (as commandKey gives them, without the `$`): the games service answers
 * them, so the bot never answers a custom command of the same name. The games catalogue
 * (`GET /api/games/catalog`) describes exactly these; a test in games keeps the two equal.
 */
export const builtInCommandNames: ReadonlySet<string> = new Set(['hero', 'mmr', 'rank', 'game', 'attack', 'gmb']);
