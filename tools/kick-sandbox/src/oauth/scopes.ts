/** kick-api.md §2.9. */
export const kickScopes = [
  'user:read',
  'channel:read',
  'channel:write',
  'channel:rewards:read',
  'channel:rewards:write',
  'chat:write',
  'streamkey:read',
  'events:subscribe',
  'moderation:ban',
  'moderation:chat_message:manage',
  'kicks:read',
] as const;

export type KickScope = (typeof kickScopes)[number];

export const scopeDescriptions: Record<KickScope, string> = {
  'user:read': 'Read your profile (name, id, picture, email)',
  'channel:read': 'Read your channel (title, category, stream state)',
  'channel:write': "Update your channel's stream title, category and tags",
  'channel:rewards:read': 'Read channel-point rewards and redemptions',
  'channel:rewards:write': 'Manage channel-point rewards and redemptions',
  'chat:write': 'Send chat messages as you, and let the app’s bot post in your chat',
  'streamkey:read': 'Read your stream key and ingest URL',
  'events:subscribe': "Receive your channel's events (chat, follows, subscriptions…)",
  'moderation:ban': 'Ban and time out users',
  'moderation:chat_message:manage': 'Delete chat messages',
  'kicks:read': 'Read KICKs data',
};

export const isKickScope = (value: string): value is KickScope => (kickScopes as readonly string[]).includes(value);

/** Space-separated, as in the authorize request and the token response; runs of spaces are tolerated. */
export const splitScopes = (value: string): string[] => value.split(' ').filter((scope) => scope.length > 0);
