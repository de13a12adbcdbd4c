import { batchWaitOf, chatBatchWaitMs, sideBatchWaitMs } from './connect-platform';

describe('how long a consumer lets messages gather (batchWaitOf)', () => {
  test('when a reader no reply waits for consumes a chat-rate topic, then it fetches every 100 ms', () => {
    expect(batchWaitOf('command.executed', 'auth')).toBe(sideBatchWaitMs);
    expect(batchWaitOf('command.executed', 'commands-usage')).toBe(sideBatchWaitMs);
    expect(batchWaitOf('chat.received', 'realtime')).toBe(sideBatchWaitMs);
    expect(batchWaitOf('chat.received', 'realtime.instance.r-1')).toBe(sideBatchWaitMs);
    expect(batchWaitOf('chat.received', 'bot-runner.timers')).toBe(sideBatchWaitMs);
    expect(sideBatchWaitMs).toBe(100);
  });

  test('when a reader on the way to a reply consumes a chat-rate topic, then it fetches every 20 ms', () => {
    expect(batchWaitOf('chat.received', 'bot-runner')).toBe(chatBatchWaitMs);
    expect(batchWaitOf('chat.received', 'bot-runner.moderation')).toBe(chatBatchWaitMs);
    expect(batchWaitOf('chat.received', 'games')).toBe(chatBatchWaitMs);
    expect(batchWaitOf('chat.send', 'kick-link')).toBe(chatBatchWaitMs);
    expect(chatBatchWaitMs).toBe(20);
  });

  test('when a topic is not chat-rate, then nothing waits between fetches', () => {
    expect(batchWaitOf('user.changed', 'commands-usage')).toBe(0);
    expect(batchWaitOf('kick.account', 'auth')).toBe(0);
  });
});
