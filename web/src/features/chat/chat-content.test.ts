import { chatParts, emoteImageUrl } from './chat-content';

describe('chatParts', () => {
  test('when a line holds an emote token, then it becomes an emote with Kick’s image address', () => {
    expect(chatParts('Welcome in! [emote:37226:KEKW] :)')).toEqual([
      { kind: 'text', text: 'Welcome in! ' },
      { kind: 'emote', id: '37226', name: 'KEKW', src: 'https://files.kick.com/emotes/37226/fullsize' },
      { kind: 'text', text: ' :)' },
    ]);
  });

  test('when a line holds a web address, then it becomes a link without the sentence’s full stop', () => {
    expect(chatParts('see https://kick.com/sandbox_streamer. now')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', href: 'https://kick.com/sandbox_streamer', text: 'https://kick.com/sandbox_streamer' },
      { kind: 'text', text: '. now' },
    ]);
  });

  test('when something only looks like a token or an address, then it stays text', () => {
    expect(chatParts('[emote:abc:KEKW] javascript:alert(1) http://')).toEqual([
      { kind: 'text', text: '[emote:abc:KEKW] javascript:alert(1) http://' },
    ]);
    expect(chatParts('<img src=x onerror=alert(1)>')).toEqual([{ kind: 'text', text: '<img src=x onerror=alert(1)>' }]);
  });

  test('when emotes follow each other, then each is its own part', () => {
    expect(chatParts('[emote:1:a][emote:2:b]').map((part) => part.kind)).toEqual(['emote', 'emote']);
    expect(emoteImageUrl('2')).toBe('https://files.kick.com/emotes/2/fullsize');
  });
});
