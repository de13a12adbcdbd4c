import { escapeRegExp } from './repository';

describe('escapeRegExp', () => {
  test.each(['a.c', '(', '.*', '[a-z]+', '\\', '$^', 'a|b', '{2}', '?', '/'])(
    'when the search is %j, then the pattern matches exactly that text',
    (text) => {
      const pattern = new RegExp(escapeRegExp(text), 'i');
      expect(pattern.test(`xx${text}yy`)).toBe(true);
      expect(pattern.test('abc plain text')).toBe(false);
    },
  );
});
