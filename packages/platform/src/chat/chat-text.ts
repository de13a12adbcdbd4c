/** Kick's limit on a chat line (kick-api.md §5.1), in characters (code points). */
export const kickChatMaxLength = 500;

/**
 * Cuts a chat line to Kick's limit, counting code points, so an emoji is never split in half.
 * Applied where lines enter the product (realtime's log and live view) and where they leave it
 * (kick-link's sender): a 90 KB "chat line" is never stored or relayed as is.
 */
export function cutChatLine(text: string, max = kickChatMaxLength): string {
  // fast path: fewer UTF-16 units than the limit means fewer code points too
  if (text.length <= max) return text;
  const characters = Array.from(text);
  return characters.length <= max ? text : characters.slice(0, max).join('');
}

/**
 * C0 controls (U+0000–U+001F: newline, carriage return, escape...), DEL, C1 controls
 * (U+0080–U+009F, NEL among them) and the Unicode line and paragraph separators.
 */
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A value going into a chat line (a username, what a viewer typed) without control characters:
 * a `{user}` holding a newline must not start a second line or forge one that looks like the bot's.
 */
export function stripControlCharacters(text: string): string {
  return text.replace(controlCharacters, '');
}
