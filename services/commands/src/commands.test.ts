import { commandNameProblem, normalizeCommandName, responseProblem } from './commands';

describe('normalizeCommandName', () => {
  test.each([
    ['$Hello', 'Hello'],
    ['  hello  ', 'hello'],
    [' $hi ', 'hi'],
    ['$$hi', '$hi'],
    ['$', ''],
    ['$ hi', ' hi'],
  ])('when the streamer types %j, then the name is %j', (typed, name) => {
    expect(normalizeCommandName(typed)).toBe(name);
  });
});

describe('commandNameProblem', () => {
  test.each(['a', 'Hello', 'my-command_2', 'A'.repeat(50)])('when the name is %j, then it is fine', (name) => {
    expect(commandNameProblem(name)).toBeUndefined();
  });

  test('when a name breaks several rules, then the first in the spec order is reported', () => {
    expect(commandNameProblem('a b!')).toBe('Command must be a single word (no spaces allowed).');
    expect(commandNameProblem(`${'a'.repeat(60)}!`)).toBe(
      'Command can only contain letters, numbers, hyphens, and underscores.',
    );
  });
});

describe('responseProblem', () => {
  test('when the response is 500 characters, then it is fine; at 501 it is too long', () => {
    expect(responseProblem('x'.repeat(500))).toBeUndefined();
    expect(responseProblem('x'.repeat(501))).toBe('Response text must be 500 characters or less');
  });
});
