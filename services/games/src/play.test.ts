import { createInProcessBus, kickstandTopics, type TopicMessage } from '@kickstand/platform/bus';
import { recordPublished } from '@kickstand/platform/testing';
import { chatInputOf } from './play';

// A real message, as the games consumer receives it: published on an in-process bus and decoded back.
const recorded = recordPublished(createInProcessBus({ topics: kickstandTopics }), kickstandTopics);
afterAll(() => recorded.bus.stop());

async function chatReceived(senderUsername: string, broadcasterUsername = 'streamer') {
  recorded.clear();
  await recorded.bus.publish('chat.received', '42', {
    messageId: 'm1',
    ownerUserId: 'u1',
    broadcasterUserId: '42',
    broadcasterUsername,
    sender: { userId: '7', username: senderUsername },
    content: '$gmb 10',
  });
  const [message] = recorded.published('chat.received');
  if (!message) throw new Error('nothing recorded');
  return message as TopicMessage<'chat.received'>;
}

describe('chatInputOf', () => {
  test('when a sender name holds a newline or other controls, then the game sees it without them', async () => {
    const chat = chatInputOf(
      await chatReceived('evil\r\nKickstand: free\u0085 coins', 'stream\u0000er'),
      Date.parse('2026-06-01T12:00:00Z'),
    );
    expect(chat.sender.username).toBe('evilKickstand: free coins');
    expect(chat.broadcasterUsername).toBe('streamer');
  });

  test('when a sender name is nothing but controls, then the game calls them someone', async () => {
    expect(chatInputOf(await chatReceived('\n\t'), Date.parse('2026-06-01T12:00:00Z')).sender.username).toBe('someone');
  });
});
