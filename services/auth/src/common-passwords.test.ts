import { dictionary } from '@zxcvbn-ts/language-common';
import { commonPasswordList, createSortedWords } from './common-passwords';

describe('the common password list (common-passwords.ts)', () => {
  test('when the list is built, then it holds exactly the words zxcvbn-ts exports, each found', () => {
    const exported = dictionary['passwords-common'];
    const list = commonPasswordList();
    expect(list.size).toBe(new Set(exported).size);
    expect(exported.filter((word) => !list.has(word))).toEqual([]);
    expect(commonPasswordList()).toBe(list); // built once
  });

  test('when a word is between, around, a prefix or an extension of listed words, then it is not found', () => {
    const words = createSortedWords(['dragon', 'apple', 'zebra', 'dragonfly', 'mañana', 'apple', 'a\nb']);
    expect(words.size).toBe(5); // the repeat once, the word with a newline left out
    expect(['apple', 'dragon', 'dragonfly', 'mañana', 'zebra'].filter((word) => !words.has(word))).toEqual([]);
    const absent = ['', 'a', 'aardvark', 'appl', 'apples', 'dragonf', 'dragonflyz', 'manana', 'zz', 'a\nb', 'b'];
    expect(absent.filter((word) => words.has(word))).toEqual([]);
  });

  test('when the list is empty or of one word, then only that word is found', () => {
    expect(createSortedWords([]).has('')).toBe(false);
    const one = createSortedWords(['solo']);
    expect([one.has('solo'), one.has('sol'), one.has('solos'), one.has('')]).toEqual([true, false, false, false]);
  });
});
