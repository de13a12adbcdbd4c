import { parseEmotes } from './emotes';

describe('parseEmotes', () => {
  test("when the content has kick-api.md's example token, then its positions are inclusive", () => {
    expect(parseEmotes('!song [emote:37226:KEKW]')).toEqual([{ emote_id: '37226', positions: [{ s: 6, e: 23 }] }]);
  });

  test('when an emote repeats, then one entry per distinct id with every position, in order of first use', () => {
    expect(parseEmotes('[emote:1:A] hi [emote:2:Bee] [emote:1:A]')).toEqual([
      {
        emote_id: '1',
        positions: [
          { s: 0, e: 10 },
          { s: 29, e: 39 },
        ],
      },
      { emote_id: '2', positions: [{ s: 15, e: 27 }] },
    ]);
  });

  test('when an emoji comes first, then offsets count it as one character', () => {
    expect(parseEmotes('😀 [emote:5:X]')).toEqual([{ emote_id: '5', positions: [{ s: 2, e: 12 }] }]);
  });

  test('when there is no well-formed token, then the list is empty', () => {
    expect(parseEmotes('[emote:abc:X] [emote:1:] plain')).toEqual([]);
  });
});
