import { readFileSync } from 'node:fs';

/**
 * zxcvbn-ts's list of common passwords (about 49,000, most frequent first, from breach corpora),
 * held as one sorted text and the offsets of its words.
 *
 * Why not a `Set` of the package's array: importing the package keeps its arrays (the passwords,
 * and a diceware list beside them) in the module cache for the process's life, and a Set of them
 * adds its table: ~57,000 strings and 3.8 MB of heap (0.4 MB here) that every full collection of the single
 * machine's owner thread marks again, for a list consulted only when a password is chosen
 * (docs/performance.md). One string and a typed array are two objects; a look-up is a binary search
 * (~16 comparisons). The JSON file is read, not required, so nothing of it stays in the module
 * cache.
 */
export interface SortedWords {
  has(word: string): boolean;
  readonly size: number;
}

/** Words sorted by UTF-16 code units (as `<` compares strings), one text; a word with a newline is left out. */
export function createSortedWords(words: readonly string[]): SortedWords {
  const sorted = [...new Set(words)].filter((word) => !word.includes('\n')).sort();
  const text = sorted.join('\n');
  const starts = new Uint32Array(sorted.length + 1);
  let at = 0;
  sorted.forEach((word, i) => {
    starts[i] = at;
    at += word.length + 1;
  });
  starts[sorted.length] = at; // one past the last word's separator
  // the closures below keep `text` and `starts`, never `sorted` (its 49,000 strings would stay alive)
  const count = sorted.length;
  /** `word` compared with the i-th word: negative, 0 or positive, as `<` orders them. */
  const compareWith = (word: string, i: number): number => {
    const start = starts[i] as number;
    const length = (starts[i + 1] as number) - 1 - start;
    const common = Math.min(word.length, length);
    for (let k = 0; k < common; k++) {
      const difference = word.charCodeAt(k) - text.charCodeAt(start + k);
      if (difference !== 0) return difference;
    }
    return word.length - length;
  };
  return {
    size: count,
    has(word) {
      let low = 0;
      let high = count - 1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const order = compareWith(word, middle);
        if (order === 0) return true;
        if (order < 0) high = middle - 1;
        else low = middle + 1;
      }
      return false;
    },
  };
}

/** The package's `src/passwords.json`: the same words its index exports. */
function readPasswordsFile(): string[] {
  const file = require.resolve('@zxcvbn-ts/language-common/src/passwords.json');
  const words: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(words) || !words.every((word): word is string => typeof word === 'string')) {
    throw new Error(`${file} is not a list of passwords: @zxcvbn-ts/language-common changed its files`);
  }
  return words;
}

/**
 * Built when auth loads (~50 ms: read, parse, sort), not at the first password set: there it would
 * hold the single machine's owner thread, and every chat line behind it, for that long.
 */
const commonPasswords = createSortedWords(readPasswordsFile());

/** The package's list (`src/passwords.json`: the same words its index exports). */
export function commonPasswordList(): SortedWords {
  return commonPasswords;
}
