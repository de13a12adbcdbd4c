import { parseChatCommand } from './chat-command';

describe('parseChatCommand', () => {
  test.each([
    ['$Hello world', { name: 'hello', args: ['world'] }],
    ['$hi   there  ', { name: 'hi', args: ['there'] }],
    ['$hug @friend and  more', { name: 'hug', args: ['@friend', 'and', 'more'] }],
    ['$test', { name: 'test', args: [] }],
    ['$dice\t6', { name: 'dice', args: ['6'] }],
  ])('when the line is %j, then it is the command %j', (line, expected) => {
    expect(parseChatCommand(line)).toEqual(expected);
  });

  test.each([
    ['$ hello', 'a blank follows the $'],
    ['hello', 'there is no $'],
    ['$', 'only the $'],
    ['', 'the line is empty'],
    [' $hello', 'the $ is not first'],
  ])('when the line is %j (%s), then it is not a command', (line) => {
    expect(parseChatCommand(line)).toBeNull();
  });
});
