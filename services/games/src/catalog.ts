/**
 * The catalogue of built-in chat commands, as the games service (`GET /api/games/catalog`) and the
 * public commands page show them. Their names are the `$` language's `builtInCommandNames`
 * (@kickstand/chat-language), which bot-runner leaves alone; catalog.test.ts keeps the two equal.
 */

export interface CatalogCommand {
  /** The command as typed in chat, with the `$` prefix, e.g. `$hero`. */
  readonly name: string;
  readonly description: string;
  readonly example: string;
  /** Present only for commands with rules (shown behind Show Rules / Hide Rules). */
  readonly rules?: readonly string[];
}

export interface CatalogCategory {
  readonly name: string;
  readonly commands: readonly CatalogCommand[];
}

export interface CommandCatalog {
  readonly categories: readonly CatalogCategory[];
}

/** Duration limits of the timed games, in minutes. */
export const gameDurationLimits = { min: 1, max: 60, default: 5 } as const;

const gameRules: readonly string[] = [
  'Only one game may run at a time in a channel.',
  'Only the broadcaster can start a raid boss ($game raidboss) or a guess-my-balance game ($game gmb), and only the broadcaster ends guess my balance with $gmb end.',
  'Viewers play with $attack (raid boss) and $gmb {amount} (guess my balance).',
  `Raid boss and guess-my-balance games last ${gameDurationLimits.min}-${gameDurationLimits.max} minutes (default ${gameDurationLimits.default}).`,
];

export const commandCatalog: CommandCatalog = {
  categories: [
    {
      name: 'Dota 2',
      commands: [
        {
          name: '$hero',
          description: 'Looks up a Dota 2 hero: primary attribute, attack type, roles and base stats.',
          example: '$hero anti-mage',
        },
        {
          name: '$mmr',
          description: "Shows the streamer's Dota 2 rank medal, leaderboard rank and estimated MMR (from OpenDota).",
          example: '$mmr',
        },
        {
          name: '$rank',
          description: "Shows the streamer's Dota 2 rank medal and leaderboard rank (same as $mmr).",
          example: '$rank',
        },
      ],
    },
    {
      name: 'Game Features',
      commands: [
        {
          name: '$game',
          description:
            'Starts a chat game: raidboss (the chat fights a boss) or gmb (guess my balance). Broadcaster only.',
          example: '$game raidboss 10',
          rules: [
            ...gameRules,
            'Raid boss: a boss with 5,000-20,000 HP appears and 4 random weapons are offered. The chat wins if the boss reaches 0 HP before the time runs out; otherwise it escapes. The top 5 damage dealers are announced.',
            "Guess my balance: viewers guess the broadcaster's balance until the time runs out; the broadcaster reveals it with $gmb end {balance} and the 5 closest guesses win medals.",
          ],
        },
        {
          name: '$attack',
          description:
            'Attacks the raid boss with one of the offered weapons (without a weapon, or with an unknown one, the first offered weapon is used).',
          example: '$attack sword',
          rules: [...gameRules, 'Each viewer can attack once every 5 seconds.'],
        },
        {
          name: '$gmb',
          description:
            "Guesses the broadcaster's balance during guess my balance; a later guess replaces your earlier one. The broadcaster ends the game with $gmb end {balance}.",
          example: '$gmb 1,234.50',
          rules: [
            ...gameRules,
            'Each viewer can guess once every 30 seconds; only the latest guess counts.',
            'The 5 closest guesses win (🥇 🥈 🥉, then 4th and 5th); ties go to whoever guessed first.',
          ],
        },
      ],
    },
    { name: 'Interactive', commands: [] },
  ],
};
