import { randomBytes } from 'node:crypto';
import { DuplicateKeyError } from '@kickstand/platform/store';
import type { Clock } from '@kickstand/platform/clock';
import { defaultCategoryId } from './categories';
import { newKickUserId } from './ids';
import type { ChannelState, KickUserDoc, Repository } from './repository';

export const usernamePattern = /^[A-Za-z0-9_]{3,25}$/;

const usernameColors = ['#1E90FF', '#FF4500', '#2E8B57', '#DAA520', '#9ACD32', '#FF69B4', '#8A2BE2', '#00CED1'];

export interface NewKickUser {
  username: string;
  userId?: number;
  email?: string;
  isVerified?: boolean;
  usernameColor?: string;
  channel?: Partial<Pick<ChannelState, 'description' | 'streamTitle' | 'categoryId' | 'language' | 'isMature'>>;
}

export class UserExistsError extends Error {
  constructor(readonly username: string) {
    super(`A Kick user named "${username}" or with that id already exists`);
    this.name = 'UserExistsError';
  }
}

export interface KickUsers {
  create(user: NewKickUser): Promise<KickUserDoc>;
  /** The user with this name, created with defaults when missing (the authorize page's "new username"). */
  ensure(username: string): Promise<KickUserDoc>;
  byId(userId: number): Promise<KickUserDoc | null>;
  byIds(userIds: readonly number[]): Promise<KickUserDoc[]>;
  bySlugs(slugs: readonly string[]): Promise<KickUserDoc[]>;
  byUsername(username: string): Promise<KickUserDoc | null>;
  list(): Promise<KickUserDoc[]>;
  /** Sets channel fields (`{ isLive: true }` → `channel.isLive`); returns the user after the change. */
  updateChannel(userId: number, changes: Partial<ChannelState>): Promise<KickUserDoc | null>;
}

export function createKickUsers({ repo, clock }: { repo: Repository; clock: Clock }): KickUsers {
  async function create(user: NewKickUser): Promise<KickUserDoc> {
    // a caller-chosen id is tried once; a generated one is retried on the (unlikely) collision
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const userId = user.userId ?? newKickUserId();
      const slug = user.username.toLowerCase();
      try {
        return await repo.users.insertOne({
          _id: String(userId),
          userId,
          username: user.username,
          slug,
          email: user.email ?? `${slug}@sandbox.kick.test`,
          isVerified: user.isVerified ?? false,
          usernameColor: user.usernameColor ?? usernameColors[userId % usernameColors.length] ?? '#1E90FF',
          createdAt: clock.now(),
          channel: newChannel(user.channel ?? {}),
        });
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        if (user.userId !== undefined || (await repo.users.findOne({ slug }))) throw new UserExistsError(user.username);
      }
    }
    throw new Error('could not find a free Kick user id');
  }

  return {
    create,
    async ensure(username) {
      const existing = await repo.users.findOne({ slug: username.toLowerCase() });
      if (existing) return existing;
      try {
        return await create({ username });
      } catch (error) {
        // two requests racing for the same new name: the loser reads the winner's user
        if (!(error instanceof UserExistsError)) throw error;
        const raced = await repo.users.findOne({ slug: username.toLowerCase() });
        if (!raced) throw error;
        return raced;
      }
    },
    byId: (userId) => repo.users.findOne({ userId }),
    byIds: (userIds) => repo.users.find({ userId: { $in: [...userIds] } }),
    bySlugs: (slugs) => repo.users.find({ slug: { $in: slugs.map((slug) => slug.toLowerCase()) } }),
    byUsername: (username) => repo.users.findOne({ slug: username.toLowerCase() }),
    list: () => repo.users.find({}, { sort: { createdAt: 1 } }),
    async updateChannel(userId, changes) {
      const set = Object.fromEntries(
        Object.entries(changes)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => [`channel.${key}`, value]),
      );
      if (Object.keys(set).length === 0) return repo.users.findOne({ userId });
      return repo.users.findOneAndUpdate({ userId }, { $set: set });
    },
  };
}

function newChannel(given: NonNullable<NewKickUser['channel']>): ChannelState {
  return {
    description: given.description ?? '',
    streamTitle: given.streamTitle ?? '',
    categoryId: given.categoryId ?? defaultCategoryId,
    language: given.language ?? 'en',
    isMature: given.isMature ?? false,
    customTags: [],
    isLive: false,
    startedAt: null,
    endedAt: null,
    viewerCount: 0,
    streamUrl: 'rtmps://ingest.sandbox.kick.test:443/app/',
    streamKey: `sk_sandbox_${randomBytes(12).toString('hex')}`,
    activeSubscribersCount: 0,
    canceledSubscribersCount: 0,
    moderatorUserIds: [],
    subscribers: [],
  };
}

/** Badges Kick would show for this user in this channel, from what the sandbox knows of their roles. */
export function badgesIn(channelOwner: KickUserDoc, userId: number): { text: string; type: string; count?: number }[] {
  const badges: { text: string; type: string; count?: number }[] = [];
  if (channelOwner.userId === userId) badges.push({ text: 'Broadcaster', type: 'broadcaster' });
  if (channelOwner.channel.moderatorUserIds.includes(userId)) badges.push({ text: 'Moderator', type: 'moderator' });
  const subscription = channelOwner.channel.subscribers.find((entry) => entry.userId === userId);
  if (subscription) badges.push({ text: 'Subscriber', type: 'subscriber', count: subscription.months });
  return badges;
}
