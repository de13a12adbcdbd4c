// Chat text as Kick shows it: emote tokens become images, web addresses become links (pure).

/** Where Kick serves an emote's image (kick-api.md: `[emote:<id>:<name>]`, files.kick.com/emotes/<id>/fullsize). */
export const emoteImageUrl = (id: string): string => `https://files.kick.com/emotes/${encodeURIComponent(id)}/fullsize`;

export type ChatPart =
  | { kind: 'text'; text: string }
  | { kind: 'emote'; id: string; name: string; src: string }
  | { kind: 'link'; href: string; text: string };

// an emote token, or an http(s) address up to the next space
const tokenPattern = /\[emote:(\d{1,20}):([^\]\s]{1,100})\]|https?:\/\/[^\s<>"]+/gi;
/** Punctuation that ends a sentence rather than the address ("see https://x.io."). */
const trailingPunctuation = /[.,!?;:)\]'"]+$/;

/** Splits a line into text, emotes and links; the text is never interpreted as HTML. */
export function chatParts(content: string): ChatPart[] {
  const parts: ChatPart[] = [];
  const pushText = (text: string) => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last?.kind === 'text') last.text += text;
    else parts.push({ kind: 'text', text });
  };
  let at = 0;
  for (const match of content.matchAll(tokenPattern)) {
    const index = match.index;
    pushText(content.slice(at, index));
    const [token, emoteId, emoteName] = match;
    if (emoteId !== undefined && emoteName !== undefined) {
      parts.push({ kind: 'emote', id: emoteId, name: emoteName, src: emoteImageUrl(emoteId) });
      at = index + token.length;
      continue;
    }
    const href = token.replace(trailingPunctuation, '');
    if (isWebAddress(href)) parts.push({ kind: 'link', href, text: href });
    else pushText(href);
    at = index + href.length;
  }
  pushText(content.slice(at));
  return parts;
}

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
