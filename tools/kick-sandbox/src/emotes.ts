export interface EmotePosition {
  s: number;
  e: number;
}

export interface Emote {
  emote_id: string;
  positions: EmotePosition[];
}

const emoteToken = /\[emote:(\d+):([^\]\s]+)\]/g;

/**
 * The `emotes` array Kick sends with a chat message: one entry per distinct emote id, positions of
 * every `[emote:<id>:<name>]` token, `s` = its first character, `e` = its last (inclusive).
 * Offsets count characters (code points), not UTF-16 units, so an emoji before a token counts once.
 */
export function parseEmotes(content: string): Emote[] {
  const byId = new Map<string, Emote>();
  for (const match of content.matchAll(emoteToken)) {
    const [token, id] = match;
    if (id === undefined) continue;
    const s = Array.from(content.slice(0, match.index)).length;
    const e = s + Array.from(token).length - 1;
    const emote = byId.get(id) ?? { emote_id: id, positions: [] };
    emote.positions.push({ s, e });
    byId.set(id, emote);
  }
  return [...byId.values()];
}
