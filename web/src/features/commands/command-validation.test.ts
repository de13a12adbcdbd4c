import { commandMessages, commandNameProblem, responseProblem } from './command-validation';

describe('command name (spec §5)', () => {
  test.each([
    ['', 'Command name is required.'],
    ['   ', 'Command name is required.'],
    ['two words', 'Command must be a single word (no spaces allowed).'],
    ['two words!', 'Command must be a single word (no spaces allowed).'],
    ['$hello', 'Command can only contain letters, numbers, hyphens, and underscores.'],
    ['héllo', 'Command can only contain letters, numbers, hyphens, and underscores.'],
    ['Test', 'Command "Test" already exists.'],
    ['TEST', 'Command "TEST" already exists.'],
  ])('when the name is %j, then the message is %j', (name, message) => {
    expect(commandNameProblem(name, ['test'])).toBe(message);
  });

  test.each(['hello', 'my-cmd', 'my_cmd', 'Cmd2'])('when the name is %j, then it is accepted', (name) => {
    expect(commandNameProblem(name, ['test'])).toBeUndefined();
  });
});

describe('response (spec §5)', () => {
  test('when empty, then Response text is required.', () => {
    expect(responseProblem('  ', 'inline')).toBe('Response text is required.');
  });

  test('when over 500 characters, then the inline and the submit messages differ as the spec says', () => {
    expect(responseProblem('x'.repeat(501), 'inline')).toBe('Response must be 500 characters or less');
    expect(responseProblem('x'.repeat(501), 'submit')).toBe('Response text must be 500 characters or less');
    expect(responseProblem('x'.repeat(500), 'submit')).toBeUndefined();
  });

  test('when removing, then the confirmation names the command with its $ prefix', () => {
    expect(commandMessages.confirmRemove('hello')).toBe('Are you sure you want to remove the command $hello?');
  });
});
