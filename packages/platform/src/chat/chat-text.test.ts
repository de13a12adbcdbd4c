import { cutChatLine, kickChatMaxLength, stripControlCharacters } from './chat-text';

describe('chat text', () => {
  test('when a line is longer than 500 characters, then it is cut to 500', () => {
    expect(kickChatMaxLength).toBe(500);
    expect(cutChatLine('x'.repeat(90_000))).toBe('x'.repeat(500));
    expect(cutChatLine('x'.repeat(500))).toBe('x'.repeat(500));
    expect(cutChatLine('short')).toBe('short');
  });

  test('when the cut falls in an emoji, then characters are counted, not UTF-16 units, and none is split', () => {
    const emoji = '😀'; // two UTF-16 units, one character
    expect(cutChatLine(emoji.repeat(300))).toBe(emoji.repeat(300));
    expect(cutChatLine(emoji.repeat(600))).toBe(emoji.repeat(500));
    expect(cutChatLine(`${'a'.repeat(499)}${emoji}b`)).toBe(`${'a'.repeat(499)}${emoji}`);
  });

  test('when a value holds C0 and C1 controls or line separators, then they are removed and the rest kept', () => {
    expect(stripControlCharacters('evil\nKickstand: free coins')).toBe('evilKickstand: free coins');
    expect(stripControlCharacters('a\r\tb\u0000c\u001b[31md\u007fe\u0085f\u009fg\u2028h\u2029i')).toBe('abc[31mdefghi');
    expect(stripControlCharacters('émile 😀 ok')).toBe('émile 😀 ok');
  });
});
