import type { KickUsers, NewKickUser } from './kick-users';

/** Fixed ids, so docs and tests can name them; they look like Kick's (plain integers). */
export const seedUserIds = {
  sandbox_streamer: 4377088,
  sandbox_bot: 4377101,
  other_streamer: 4377150,
  viewer_alice: 555001,
  viewer_bob: 555002,
  viewer_carol: 555003,
} as const;

const seedUsers: NewKickUser[] = [
  {
    username: 'sandbox_streamer',
    userId: seedUserIds.sandbox_streamer,
    isVerified: true,
    usernameColor: '#53FC18',
    channel: { description: 'The Kick sandbox demo channel', streamTitle: 'Chill sandbox stream', categoryId: 15 },
  },
  // a separate account for the "bot account posts with type: user" pattern (kick-api.md §5.1)
  { username: 'sandbox_bot', userId: seedUserIds.sandbox_bot, usernameColor: '#00CED1' },
  {
    username: 'other_streamer',
    userId: seedUserIds.other_streamer,
    channel: { description: 'A second channel', streamTitle: 'Dota ranked', categoryId: 41 },
  },
  { username: 'viewer_alice', userId: seedUserIds.viewer_alice, usernameColor: '#1E90FF' },
  { username: 'viewer_bob', userId: seedUserIds.viewer_bob, usernameColor: '#FF4500' },
  { username: 'viewer_carol', userId: seedUserIds.viewer_carol, usernameColor: '#DAA520' },
];

/** First start only (no users yet): a streamer, a bot account (moderator of the streamer), viewers. */
export async function seedOnFirstStart(users: KickUsers): Promise<void> {
  if ((await users.list()).length > 0) return;
  for (const user of seedUsers) await users.create(user);
  await users.updateChannel(seedUserIds.sandbox_streamer, { moderatorUserIds: [seedUserIds.sandbox_bot] });
}
