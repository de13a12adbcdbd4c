import { parseBodyLimit } from './webhook-check';

describe('parseBodyLimit', () => {
  test.each([
    ['100kb', 102_400],
    ['1mb', 1_048_576],
    ['512b', 512],
    ['1KB', 1024],
  ])('when HTTP_BODY_LIMIT is %s, then the limit is %i bytes, as body-parser counts them', (given, bytes) => {
    expect(parseBodyLimit(given)).toBe(bytes);
  });

  test.each(['', '1gb', '1.5mb', 'kb'])('when the limit is "%s", then it is refused at start', (given) => {
    expect(() => parseBodyLimit(given)).toThrow(`the body limit "${given}" is not a size such as 100kb or 1mb`);
  });
});
