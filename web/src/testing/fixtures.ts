import type { User } from '../features/session/auth-api';
import type { ChatMessage } from '../lib/socket-events';

export function aUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    username: 'streamer1',
    email: 'streamer1@example.com',
    role: 'USER',
    isActive: true,
    lastLogin: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    botEnabled: true,
    kickAccount: null,
    _count: { commands: 1 },
    ...overrides,
  };
}

export const aKickAccount = (kickUsername = 'sandbox_streamer') => ({
  kickUsername,
  kickEmail: `${kickUsername}@kick.example`,
  profilePicture: null,
  createdAt: '2025-02-01T00:00:00.000Z',
});

let nextId = 1;
export function aChatMessage(overrides: Partial<ChatMessage> = {}): ChatMessage {
  const id = `m${nextId++}`;
  return {
    id,
    username: 'viewer_alice',
    content: `hello ${id}`,
    timestamp: '2025-03-01T20:00:00.000Z',
    replyTo: null,
    isModerator: false,
    isSubscriber: false,
    badges: [],
    isBot: false,
    ...overrides,
  };
}
