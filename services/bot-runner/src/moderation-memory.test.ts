import { createModerationMemory } from './moderation';

describe('moderation memory', () => {
  test('when a viewer writes lines, then earlierSame gives the times of the same text (any case and spacing) only', () => {
    const memory = createModerationMemory();
    memory.remember('42', '7', 'Hello  there', 1_000);
    memory.remember('42', '7', 'something else', 2_000);
    memory.remember('42', '7', 'hello there', 3_000);
    memory.remember('42', '8', 'hello there', 4_000);

    expect(memory.earlierSame('42', '7', 'HELLO THERE')).toEqual([1_000, 3_000]);
  });

  test('when a line is marked judged, then it is known as judged; others are not', () => {
    const memory = createModerationMemory();
    memory.judged('m1');

    expect(memory.isJudged('m1')).toBe(true);
    expect(memory.isJudged('m2')).toBe(false);
  });
});
