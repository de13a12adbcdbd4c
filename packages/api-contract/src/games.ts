import { z } from 'zod';
import { dataReply } from './common';

// The games service's doors: the public catalogue of built-in commands and the streamer's settings.

export const steamAccountIdMessage =
  'steamAccountId must be a Steam account id (32-bit, e.g. 70388657) or a 64-bit SteamID (e.g. "76561198030654385")';

/** The 64-bit SteamID of 32-bit account 0 (individual account, public universe). */
export const steamId64Base = 76561197960265728n;
const maxAccountId = 4_294_967_295n;

/**
 * A 32-bit Steam account id (what OpenDota uses) from either that id or a 64-bit SteamID
 * (`76561197960265728 + account id`), given as decimal digits. Null when it is neither.
 */
export function toSteamAccountId(input: string): number | null {
  const text = input.trim();
  if (!/^\d{1,20}$/.test(text)) return null;
  const value = BigInt(text);
  const accountId = value >= steamId64Base ? value - steamId64Base : value;
  if (accountId < 1n || accountId > maxAccountId) return null;
  return Number(accountId);
}

/**
 * `steamAccountId`: the 32-bit account id (number or digits) or a 64-bit SteamID (digits; as a
 * JSON number it would lose precision, so a number must be a safe integer), or null to clear it.
 */
export const gamesSettingsBodySchema = z
  .strictObject({
    steamAccountId: z
      .union([z.string(), z.number(), z.null()], { error: steamAccountIdMessage })
      .transform((value, ctx) => {
        if (value === null) return null;
        if (typeof value === 'number' && !Number.isSafeInteger(value)) {
          ctx.addIssue({ code: 'custom', message: steamAccountIdMessage });
          return z.NEVER;
        }
        const accountId = toSteamAccountId(String(value));
        if (accountId === null) {
          ctx.addIssue({ code: 'custom', message: steamAccountIdMessage });
          return z.NEVER;
        }
        return accountId;
      }),
  })
  .meta({ title: 'GamesSettingsBody' });
export type GamesSettingsBody = z.infer<typeof gamesSettingsBodySchema>;
/** What the dashboard sends: the id as typed (digits) or a number, or null. */
export type GamesSettingsInput = z.input<typeof gamesSettingsBodySchema>;

/** What GET/PUT /api/games/settings answer in `data`. */
export const gamesSettingsSchema = z.object({ steamAccountId: z.number().int().nullable() });
export type GamesSettings = z.infer<typeof gamesSettingsSchema>;

export const catalogCommandSchema = z.object({
  /** The command as typed in chat, with the `$` prefix, e.g. `$hero`. */
  name: z.string(),
  description: z.string(),
  example: z.string(),
  /** Present only for commands with rules (shown behind Show Rules / Hide Rules). */
  rules: z.array(z.string()).optional(),
});
export type CatalogCommand = z.infer<typeof catalogCommandSchema>;
export const catalogCategorySchema = z.object({ name: z.string(), commands: z.array(catalogCommandSchema) });
export type CatalogCategory = z.infer<typeof catalogCategorySchema>;
export const commandCatalogSchema = z.object({ categories: z.array(catalogCategorySchema) });
export type CommandCatalog = z.infer<typeof commandCatalogSchema>;

export const gamesSettingsReplySchema = dataReply(gamesSettingsSchema);
export const commandCatalogReplySchema = dataReply(commandCatalogSchema);
