import { shapeDifferences } from './json-shape';

describe('shapeDifferences', () => {
  test('when keys and types match, then there is no difference', () => {
    expect(shapeDifferences({ a: 1, b: [{ c: 'x' }] }, { a: 2, b: [{ c: 'y' }] })).toEqual([]);
  });

  test('when a key is missing, extra, or of another type, then each is named by its path', () => {
    expect(shapeDifferences({ a: '1', b: [{ d: 1 }], e: true }, { a: 2, b: [{ c: 'y' }] })).toEqual([
      '$.a: expected integer, got string',
      '$.b[].c: missing',
      "$.b[].d: not in kick-api.md's example",
      "$.e: not in kick-api.md's example",
    ]);
  });

  test('when an integer is documented, then a fraction is a difference', () => {
    expect(shapeDifferences({ id: 1.5 }, { id: 15 })).toEqual(['$.id: expected integer, got number']);
  });

  test('when a key only some example items have is absent, then that is fine', () => {
    const example = {
      badges: [
        { text: 'M', type: 'moderator' },
        { text: 'S', type: 'subscriber', count: 6 },
      ],
    };
    expect(
      shapeDifferences(
        {
          badges: [
            { text: 'S', type: 'subscriber' },
            { text: 'S', type: 's', count: 2 },
          ],
        },
        example,
      ),
    ).toEqual([]);
  });

  test('when optional and nullable rules apply, then absence and null are allowed and present values are still checked', () => {
    const rules = { optional: { '$.extra': 0, '$.maybe': undefined }, nullable: { '$.when': 'a date' } };
    expect(shapeDifferences({ when: null }, { when: 'x', maybe: 'y' }, rules)).toEqual([]);
    expect(shapeDifferences({ when: 'x', maybe: 'y', extra: 3 }, { when: 'x', maybe: 'y' }, rules)).toEqual([]);
    expect(shapeDifferences({ when: 1, maybe: 'y', extra: 'no' }, { when: 'x', maybe: 'y' }, rules)).toEqual([
      '$.when: expected string, got integer',
      '$.extra: expected integer, got string',
    ]);
  });

  test('when the example is null and the rule names the alternative, then an object is checked against it', () => {
    const rules = { nullable: { '$.identity': { color: '#fff' } } };
    expect(shapeDifferences({ identity: { color: '#000' } }, { identity: null }, rules)).toEqual([]);
    expect(shapeDifferences({ identity: { colour: '#000' } }, { identity: null }, rules)).toHaveLength(2);
  });
});
