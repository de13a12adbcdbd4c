import { randomRange } from '@kickstand/chat-language';

/**
 * Translating another bot's response variables into Kickstand's (`{user}`, `{touser}`, `{args}`,
 * `{channel}`, `{count}`, `{random:A-B}`, and the stream's `{uptime}`, `{title}`, `{game}`). A variable Kickstand has no equivalent of stays in the
 * response exactly as written (so the streamer sees it in chat and can fix it) and is reported.
 * Pure: no I/O.
 */

export interface Translation {
  response: string;
  /** Each translated variable once, in order of first appearance: as written → Kickstand's. */
  translated: Array<{ from: string; to: string }>;
  /** Each untranslatable variable once, as written, in order of first appearance. */
  untranslatable: string[];
}

/** A variable's inside (`user`, `random.1-20`, `urlfetch https://…`) → Kickstand's variable, or undefined. */
type Translate = (inner: string) => string | undefined;

/** How one bot writes a variable: the opening (`$(`, `${`, `{`) and the closing character. */
interface Delimiter {
  open: string;
  close: string;
}

export interface Dialect {
  delimiters: readonly Delimiter[];
  translate: Translate;
}

const randomOf = (min: string, max: string): string | undefined =>
  randomRange(`${min}-${max}`) ? `{random:${min}-${max}}` : undefined;

/** `random.1-20`, `random:1-20`, `random 1-20` (BotRix is read leniently: see docs/command-import.md). */
const randomPattern = /^random[.: ]\s*(\d{1,7})\s*-\s*(\d{1,7})$/i;

const lookup =
  (names: Readonly<Record<string, string>>, withRandom: boolean): Translate =>
  (inner) => {
    const trimmed = inner.trim();
    const direct = names[trimmed.toLowerCase()];
    if (direct) return direct;
    if (!withRandom) return undefined;
    const random = randomPattern.exec(trimmed);
    return random ? randomOf(random[1] ?? '', random[2] ?? '') : undefined;
  };

/** Nightbot: `$(user)`, `$(touser)`, `$(query)`, `$(channel)`, `$(count)`; `$(1)`, `$(urlfetch …)`… have no equivalent. */
export const nightbotDialect: Dialect = {
  delimiters: [{ open: '$(', close: ')' }],
  translate: lookup(
    { user: '{user}', touser: '{touser}', query: '{args}', channel: '{channel}', count: '{count}' },
    false,
  ),
};

/**
 * StreamElements: `${sender}` / `${source}` is who typed; `${user}` and `${touser}` name the viewer
 * written after the command, else who typed (Kickstand's `{touser}`); `${1:}` is everything typed
 * after the command. It also reads `$(…)`, which newer StreamElements docs use.
 */
export const streamElementsDialect: Dialect = {
  delimiters: [
    { open: '${', close: '}' },
    { open: '$(', close: ')' },
  ],
  translate: lookup(
    {
      sender: '{user}',
      source: '{user}',
      user: '{touser}',
      'user.name': '{touser}',
      touser: '{touser}',
      '1:': '{args}',
      channel: '{channel}',
      count: '{count}',
      uptime: '{uptime}',
      title: '{title}',
      game: '{game}',
    },
    true,
  ),
};

/** BotRix (format not confirmed offline): `{user}`-style, also `$(…)` and `${…}`, with common names. */
export const botrixDialect: Dialect = {
  delimiters: [
    { open: '${', close: '}' },
    { open: '$(', close: ')' },
    { open: '{', close: '}' },
  ],
  translate: lookup(
    {
      user: '{user}',
      sender: '{user}',
      username: '{user}',
      touser: '{touser}',
      target: '{touser}',
      args: '{args}',
      query: '{args}',
      channel: '{channel}',
      streamer: '{channel}',
      count: '{count}',
      uptime: '{uptime}',
      title: '{title}',
      game: '{game}',
      category: '{game}',
    },
    true,
  ),
};

/** The end of the variable opened at `start` (index after its closing character), nesting counted; -1 if unclosed. */
function closingIndex(text: string, start: number, delimiter: Delimiter): number {
  const openChar = delimiter.open[delimiter.open.length - 1] ?? '';
  let depth = 1;
  for (let index = start + delimiter.open.length; index < text.length; index++) {
    const char = text[index];
    if (char === openChar) depth++;
    else if (char === delimiter.close) {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** One pass over the response: each outermost variable is translated or kept whole (nested ones included). */
export function translateVariables(text: string, dialect: Dialect): Translation {
  const translated = new Map<string, string>();
  const untranslatable = new Set<string>();
  let response = '';
  let index = 0;
  while (index < text.length) {
    const delimiter = dialect.delimiters.find((candidate) => text.startsWith(candidate.open, index));
    const end = delimiter ? closingIndex(text, index, delimiter) : -1;
    if (!delimiter || end === -1) {
      response += text[index];
      index++;
      continue;
    }
    const whole = text.slice(index, end);
    const inner = whole.slice(delimiter.open.length, -delimiter.close.length);
    const kickstand = dialect.translate(inner);
    if (kickstand === undefined) {
      untranslatable.add(whole);
      response += whole;
    } else {
      // a variable already written Kickstand's way (BotRix's `{user}`) is not a translation
      if (whole !== kickstand && !translated.has(whole)) translated.set(whole, kickstand);
      response += kickstand;
    }
    index = end;
  }
  return {
    response,
    translated: [...translated].map(([from, to]) => ({ from, to })),
    untranslatable: [...untranslatable],
  };
}
