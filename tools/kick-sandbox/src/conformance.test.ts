/**
 * Conformance with kick-api.md: the documented example bodies, copied verbatim below, against what
 * the sandbox answers and delivers — the same keys at every level and the same JSON types. If the
 * product works against the sandbox, it reads and sends what real Kick documents.
 */
import { seedUserIds } from './seed';
import { shapeDifferences, type ShapeRules } from './testing/json-shape';
import { startSandboxForTest, type SandboxHarness } from './testing/sandbox-harness';
import type { ReceivedDelivery } from './testing/webhook-receiver';

// ---- kick-api.md examples, verbatim ----------------------------------------------------------

const tokenResponseExample = {
  access_token: 'eyJ...',
  token_type: 'Bearer',
  refresh_token: 'def50200...',
  expires_in: 7200,
  scope: 'user:read channel:read chat:write events:subscribe',
};

const appTokenResponseExample = { access_token: 'eyJ...', token_type: 'Bearer', expires_in: 5184000 };

const introspectExample = {
  data: {
    active: true,
    client_id: '01JXAMPLECLIENT0000000000',
    token_type: 'user',
    scope: 'user:read channel:read',
    exp: 1771046347,
  },
  message: 'OK',
};

const usersExample = {
  data: [
    {
      user_id: 4377088,
      name: 'some_streamer',
      email: 'owner@example.com',
      profile_picture: 'https://files.kick.com/images/user/4377088/profile_image/default.webp',
    },
  ],
  message: 'OK',
};

const channelsExample = {
  data: [
    {
      broadcaster_user_id: 4377088,
      slug: 'some_streamer',
      channel_description: 'Variety streams every evening',
      banner_picture: 'https://files.kick.com/images/channel/.../banner.webp',
      stream_title: 'ranked grind',
      category: {
        id: 15,
        name: 'Just Chatting',
        thumbnail: 'https://files.kick.com/images/subcategories/15/banner.webp',
      },
      stream: {
        is_live: true,
        is_mature: false,
        language: 'en',
        start_time: '2026-03-02T18:00:04Z',
        viewer_count: 812,
        thumbnail: 'https://images.kick.com/video_thumbnails/.../720.webp',
        custom_tags: ['english', 'chill'],
        url: '',
        key: '',
      },
      active_subscribers_count: 142,
      canceled_subscribers_count: 9,
    },
  ],
  message: 'OK',
};

const chatSendExample = { data: { is_sent: true, message_id: '7d0f5c2e-1a2b-4c3d-8e9f-0a1b2c3d4e5f' }, message: 'OK' };

const publicKeyExample = {
  data: { public_key: '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqh...\n-----END PUBLIC KEY-----' },
  message: 'OK',
};

const subscriptionsListExample = {
  data: [
    {
      id: '01JK7Z8Q4W2M6B3T5N9R1C0XYZ',
      app_id: '01JK7Z5F0A1B2C3D4E5F6G7H8J',
      broadcaster_user_id: 4377088,
      event: 'chat.message.sent',
      version: 1,
      method: 'webhook',
      created_at: '2026-03-02T17:55:10Z',
      updated_at: '2026-03-02T17:55:10Z',
    },
  ],
  message: 'OK',
};

const subscribeResponseExample = {
  data: [
    { name: 'chat.message.sent', version: 1, subscription_id: '01JK7Z8Q4W2M6B3T5N9R1C0XYZ', error: '' },
    { name: 'channel.followed', version: 1, subscription_id: '01JK7Z8Q4W2M6B3T5N9R1C0Y00', error: '' },
  ],
  message: 'OK',
};

const errorExamples = {
  unauthorized: { data: {}, message: 'Unauthorized' },
  invalidRequest: { data: {}, message: 'Invalid request' },
  channelNotFound: { data: 'Channel not found', message: 'Bad request' },
  subscriptionLimit: { data: 'event subscription limit reached', message: 'Bad request' },
  oauthInvalidRequest: { error: 'Invalid request' },
  oauthInvalidGrant: {
    error: 'invalid_grant',
    error_description: 'The provided authorization grant ... is invalid, expired, revoked, ...',
  },
};

const chatMessageSentExample = {
  message_id: '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c',
  replies_to: {
    message_id: '0a1b2c3d-4e5f-4061-8728-394a5b6c7d8e',
    content: 'anyone know the song?',
    sender: {
      is_anonymous: false,
      user_id: 555001,
      username: 'viewer_a',
      is_verified: false,
      profile_picture: '',
      channel_slug: 'viewer_a',
      identity: null,
    },
  },
  broadcaster: {
    is_anonymous: false,
    user_id: 4377088,
    username: 'some_streamer',
    is_verified: true,
    profile_picture: 'https://files.kick.com/images/user/4377088/profile_image/a.webp',
    channel_slug: 'some_streamer',
    identity: null,
  },
  sender: {
    is_anonymous: false,
    user_id: 555002,
    username: 'viewer_b',
    is_verified: false,
    profile_picture: '',
    channel_slug: 'viewer_b',
    identity: {
      username_color: '#1E90FF',
      badges: [
        { text: 'Moderator', type: 'moderator' },
        { text: 'Subscriber', type: 'subscriber', count: 6 },
      ],
    },
  },
  content: '!song [emote:37226:KEKW]',
  emotes: [{ emote_id: '37226', positions: [{ s: 6, e: 23 }] }],
  created_at: '2026-03-02T18:05:41Z',
};

const channelFollowedExample = {
  broadcaster: {
    is_anonymous: false,
    user_id: 4377088,
    username: 'some_streamer',
    is_verified: true,
    profile_picture: '',
    channel_slug: 'some_streamer',
    identity: null,
  },
  follower: {
    is_anonymous: false,
    user_id: 555003,
    username: 'new_fan',
    is_verified: false,
    profile_picture: '',
    channel_slug: 'new_fan',
    identity: null,
  },
};

const subscriptionNewExample = {
  broadcaster: {
    is_anonymous: false,
    user_id: 4377088,
    username: 'some_streamer',
    is_verified: true,
    profile_picture: '',
    channel_slug: 'some_streamer',
    identity: null,
  },
  subscriber: {
    is_anonymous: false,
    user_id: 555004,
    username: 'first_timer',
    is_verified: false,
    profile_picture: '',
    channel_slug: 'first_timer',
    identity: null,
  },
  duration: 1,
  created_at: '2026-03-02T18:10:00Z',
  expires_at: '2026-04-02T18:10:00Z',
};

const subscriptionRenewalExample = {
  broadcaster: {
    is_anonymous: false,
    user_id: 4377088,
    username: 'some_streamer',
    is_verified: true,
    profile_picture: '',
    channel_slug: 'some_streamer',
    identity: null,
  },
  subscriber: {
    is_anonymous: false,
    user_id: 555005,
    username: 'loyal_one',
    is_verified: false,
    profile_picture: '',
    channel_slug: 'loyal_one',
    identity: null,
  },
  duration: 7,
  created_at: '2025-08-02T11:00:00Z',
  expires_at: '2026-04-02T11:00:00Z',
};

const subscriptionGiftsExample = {
  broadcaster: {
    is_anonymous: false,
    user_id: 4377088,
    username: 'some_streamer',
    is_verified: true,
    profile_picture: '',
    channel_slug: 'some_streamer',
    identity: null,
  },
  gifter: {
    is_anonymous: false,
    user_id: 555006,
    username: 'generous',
    is_verified: false,
    profile_picture: '',
    channel_slug: 'generous',
    identity: null,
  },
  giftees: [
    {
      is_anonymous: false,
      user_id: 555007,
      username: 'lucky_1',
      is_verified: false,
      profile_picture: '',
      channel_slug: 'lucky_1',
      identity: null,
    },
    {
      is_anonymous: false,
      user_id: 555008,
      username: 'lucky_2',
      is_verified: false,
      profile_picture: '',
      channel_slug: 'lucky_2',
      identity: null,
    },
  ],
  created_at: '2026-03-02T18:12:30Z',
  expires_at: '2026-04-02T18:12:30Z',
};

const anonymousGifterExample = {
  is_anonymous: true,
  user_id: null,
  username: null,
  is_verified: null,
  profile_picture: null,
  channel_slug: null,
  identity: null,
};

const livestreamStatusExample = {
  broadcaster: {
    is_anonymous: false,
    user_id: 4377088,
    username: 'some_streamer',
    is_verified: true,
    profile_picture: '',
    channel_slug: 'some_streamer',
    identity: null,
  },
  is_live: true,
  title: 'ranked grind',
  started_at: '2026-03-02T18:00:04Z',
  ended_at: null,
};

const livestreamMetadataExample = {
  broadcaster: {
    is_anonymous: false,
    user_id: 4377088,
    username: 'some_streamer',
    is_verified: true,
    profile_picture: '',
    channel_slug: 'some_streamer',
    identity: null,
  },
  metadata: {
    title: 'ranked grind — road to top 500',
    language: 'en',
    has_mature_content: false,
    category: {
      id: 15,
      name: 'Just Chatting',
      thumbnail: 'https://files.kick.com/images/subcategories/15/banner.webp',
    },
  },
};

const moderationBannedExample = {
  broadcaster: {
    is_anonymous: false,
    user_id: 4377088,
    username: 'some_streamer',
    is_verified: true,
    profile_picture: '',
    channel_slug: 'some_streamer',
    identity: null,
  },
  moderator: {
    is_anonymous: false,
    user_id: 555009,
    username: 'trusted_mod',
    is_verified: false,
    profile_picture: '',
    channel_slug: 'trusted_mod',
    identity: null,
  },
  banned_user: {
    is_anonymous: false,
    user_id: 555010,
    username: 'spammer',
    is_verified: false,
    profile_picture: '',
    channel_slug: 'spammer',
    identity: null,
  },
  metadata: {
    reason: 'link spam',
    created_at: '2026-03-02T18:20:00Z',
    expires_at: '2026-03-02T18:30:00Z',
  },
};

// ---- documented flexibility ------------------------------------------------------------------

/** §2.4: `refresh_expires_in` is reported on user-token responses, not yet in the docs. */
const tokenRules: ShapeRules = { optional: { '$.refresh_expires_in': 2592000 } };
/** §8.9: replies_to only on replies; emotes may be null. */
const chatRules: ShapeRules = { optional: { '$.replies_to': undefined }, nullable: { '$.emotes': undefined } };
/** §8.9: a permanent ban has `expires_at: null`; the end event has `ended_at` set. */
const banRules: ShapeRules = { nullable: { '$.metadata.expires_at': undefined } };
const statusRules: ShapeRules = { nullable: { '$.ended_at': '2026-03-02T20:00:00Z' } };
/** §8.9: an anonymous gifter has null everywhere but is_anonymous. */
const anonymousGiftExample = { ...subscriptionGiftsExample, gifter: anonymousGifterExample };

// ---------------------------------------------------------------------------------------------

const streamer = seedUserIds.sandbox_streamer;

function expectShape(actual: unknown, example: unknown, rules?: ShapeRules): void {
  expect(shapeDifferences(actual, example, rules)).toEqual([]);
}

describe('conformance with kick-api.md', () => {
  let sandbox: SandboxHarness;
  let userToken: string;
  let appToken: string;

  beforeAll(async () => {
    sandbox = await startSandboxForTest();
    appToken = await sandbox.appToken();
    userToken = (
      await sandbox.linkUser('sandbox_streamer', [
        'user:read',
        'channel:read',
        'chat:write',
        'events:subscribe',
        'moderation:ban',
      ])
    ).access_token;
  });
  afterAll(() => sandbox.close());

  describe('OAuth', () => {
    test("when a code and a refresh are exchanged, then both token responses have §2.4's shape", async () => {
      const linked = await sandbox.linkUser('viewer_alice', ['user:read']);
      expectShape(linked, tokenResponseExample, tokenRules);
      const refreshed = await sandbox.request('POST', '/oauth/token', {
        form: {
          grant_type: 'refresh_token',
          client_id: 'kickstand-test',
          client_secret: 'kickstand-test-secret',
          refresh_token: linked.refresh_token,
        },
      });
      expectShape(refreshed.json, tokenResponseExample, tokenRules);
    });

    test("when client credentials are exchanged, then §2.4's app token shape, nothing more", async () => {
      const answer = await sandbox.request('POST', '/oauth/token', {
        form: { grant_type: 'client_credentials', client_id: 'kickstand-test', client_secret: 'kickstand-test-secret' },
      });
      expectShape(answer.json, appTokenResponseExample);
    });

    test("when a token is introspected, then §2.7's shape", async () => {
      expectShape(
        (await sandbox.request('POST', '/oauth/token/introspect', { token: userToken })).json,
        introspectExample,
      );
      expectShape(
        (await sandbox.request('POST', '/oauth/token/introspect', { token: appToken })).json,
        introspectExample,
      );
    });

    test("when OAuth requests are wrong, then §2.8's error shapes", async () => {
      expectShape(
        (await sandbox.request('GET', '/oauth/authorize?client_id=x')).json,
        errorExamples.oauthInvalidRequest,
      );
      const badGrant = await sandbox.request('POST', '/oauth/token', {
        form: {
          grant_type: 'refresh_token',
          client_id: 'kickstand-test',
          client_secret: 'kickstand-test-secret',
          refresh_token: 'gone',
        },
      });
      expectShape(badGrant.json, errorExamples.oauthInvalidGrant);
    });
  });

  describe('REST', () => {
    test("when users are read, then §3.1's shape", async () => {
      expectShape((await sandbox.request('GET', '/public/v1/users', { token: userToken })).json, usersExample);
      const others = await sandbox.request('GET', `/public/v1/users?id=${seedUserIds.viewer_bob}`, {
        token: userToken,
      });
      expectShape(others.json, usersExample);
    });

    test("when channels are read live and offline, then §4.1's shape", async () => {
      await sandbox.control('PATCH', `/channels/${seedUserIds.other_streamer}`, {
        isLive: true,
        customTags: ['english'],
      });
      const answer = await sandbox.request(
        'GET',
        `/public/v1/channels?broadcaster_user_id=${streamer}&broadcaster_user_id=${seedUserIds.other_streamer}`,
        { token: appToken },
      );
      expect((answer.json as { data: unknown[] }).data).toHaveLength(2);
      expectShape(answer.json, channelsExample);
    });

    test("when chat is sent, then §5.1's response shape", async () => {
      const answer = await sandbox.request('POST', '/public/v1/chat', {
        token: userToken,
        body: { type: 'user', broadcaster_user_id: streamer, content: 'conformance' },
      });
      expectShape(answer.json, chatSendExample);
    });

    test("when the public key is read, then §7's shape", async () => {
      expectShape((await sandbox.request('GET', '/public/v1/public-key', { token: appToken })).json, publicKeyExample);
    });

    test("when subscriptions are created and listed, then §8.3 and §8.4's shapes", async () => {
      const created = await sandbox.request('POST', '/public/v1/events/subscriptions', {
        token: appToken,
        body: {
          broadcaster_user_id: seedUserIds.other_streamer,
          method: 'webhook',
          events: [
            { name: 'chat.message.sent', version: 1 },
            { name: 'no.such.event', version: 1 },
          ],
        },
      });
      expectShape(created.json, subscribeResponseExample);
      const listed = await sandbox.request('GET', '/public/v1/events/subscriptions', { token: appToken });
      expectShape(listed.json, subscriptionsListExample);
    });

    test("when requests fail, then §1.2's error envelopes", async () => {
      expectShape((await sandbox.request('GET', '/public/v1/users')).json, errorExamples.unauthorized);
      expectShape(
        (await sandbox.request('POST', '/public/v1/chat', { token: userToken, body: { type: 'user', content: '' } }))
          .json,
        errorExamples.invalidRequest,
      );
      expectShape(
        (
          await sandbox.request('POST', '/public/v1/chat', {
            token: userToken,
            body: { type: 'user', broadcaster_user_id: 1, content: 'x' },
          })
        ).json,
        errorExamples.channelNotFound,
      );
    });
  });

  describe('webhook payloads (§8.9)', () => {
    const received = new Map<string, ReceivedDelivery[]>();

    beforeAll(async () => {
      const events = [
        'chat.message.sent',
        'channel.followed',
        'channel.subscription.new',
        'channel.subscription.renewal',
        'channel.subscription.gifts',
        'livestream.status.updated',
        'livestream.metadata.updated',
        'moderation.banned',
      ];
      await sandbox.request('POST', '/public/v1/events/subscriptions', {
        token: appToken,
        body: {
          broadcaster_user_id: streamer,
          method: 'webhook',
          events: events.map((name) => ({ name, version: 1 })),
        },
      });
      sandbox.receiver.clear();
      const first = await sandbox.control<{ message: { messageId: string } }>('POST', '/events/chat', {
        broadcaster: streamer,
        sender: 'viewer_a',
        content: 'anyone know the song?',
      });
      await sandbox.control('POST', '/events/chat', {
        broadcaster: streamer,
        sender: 'viewer_b',
        content: '!song [emote:37226:KEKW]',
        badges: ['moderator', { type: 'subscriber', count: 6 }],
        usernameColor: '#1E90FF',
        replyToMessageId: first.message.messageId,
      });
      await sandbox.control('POST', '/events/follow', { broadcaster: streamer, follower: 'new_fan' });
      await sandbox.control('POST', '/events/subscription-new', { broadcaster: streamer, subscriber: 'first_timer' });
      await sandbox.control('POST', '/events/subscription-renewal', {
        broadcaster: streamer,
        subscriber: 'loyal_one',
        duration: 7,
      });
      await sandbox.control('POST', '/events/subscription-gifts', {
        broadcaster: streamer,
        gifter: 'generous',
        giftees: ['lucky_1', 'lucky_2'],
      });
      await sandbox.control('POST', '/events/subscription-gifts', {
        broadcaster: streamer,
        isAnonymous: true,
        giftees: ['lucky_3'],
      });
      await sandbox.control('POST', '/events/stream-start', { broadcaster: streamer, title: 'ranked grind' });
      await sandbox.control('POST', '/events/metadata', {
        broadcaster: streamer,
        title: 'ranked grind — road to top 500',
      });
      await sandbox.control('POST', '/events/stream-end', { broadcaster: streamer });
      await sandbox.control('POST', '/events/ban', {
        broadcaster: streamer,
        user: 'spammer',
        moderator: 'trusted_mod',
        reason: 'link spam',
        durationMinutes: 10,
      });
      await sandbox.request('POST', '/public/v1/moderation/bans', {
        token: userToken,
        body: { broadcaster_user_id: streamer, user_id: seedUserIds.viewer_carol },
      });
      for (const delivery of await sandbox.receiver.waitFor(12)) {
        const type = String(delivery.headers['kick-event-type']);
        received.set(type, [...(received.get(type) ?? []), delivery]);
      }
    });

    const bodies = (type: string) => (received.get(type) ?? []).map((delivery) => delivery.body);

    test("when chat arrives (plain and as a reply with badges and emotes), then chat.message.sent's shape", () => {
      const [plain, reply] = bodies('chat.message.sent');
      expectShape(plain, chatMessageSentExample, chatRules);
      expectShape(reply, chatMessageSentExample, chatRules);
      expect(reply).toMatchObject({ replies_to: expect.any(Object), emotes: chatMessageSentExample.emotes });
    });

    test("when someone follows, then channel.followed's shape", () => {
      expect(bodies('channel.followed')).toHaveLength(1);
      expectShape(bodies('channel.followed')[0], channelFollowedExample);
    });

    test('when someone subscribes or renews, then the subscription shapes', () => {
      expectShape(bodies('channel.subscription.new')[0], subscriptionNewExample);
      expectShape(bodies('channel.subscription.renewal')[0], subscriptionRenewalExample);
    });

    test("when subscriptions are gifted, by name or anonymously, then channel.subscription.gifts's shapes", () => {
      const [named, anonymous] = bodies('channel.subscription.gifts');
      expectShape(named, subscriptionGiftsExample);
      expectShape(anonymous, anonymousGiftExample);
      expect((anonymous as { gifter: unknown }).gifter).toEqual(anonymousGifterExample);
    });

    test("when a stream starts and ends, then livestream.status.updated's shape, the end with ended_at", () => {
      const [start, end] = bodies('livestream.status.updated');
      expectShape(start, livestreamStatusExample);
      expectShape(end, livestreamStatusExample, statusRules);
      expect((end as { started_at: string }).started_at).toBe((start as { started_at: string }).started_at);
    });

    test("when the metadata changes, then livestream.metadata.updated's shape", () => {
      expectShape(bodies('livestream.metadata.updated')[0], livestreamMetadataExample);
    });

    test("when users are timed out and banned, then moderation.banned's shape", () => {
      const [timeout, permanent] = bodies('moderation.banned');
      expectShape(timeout, moderationBannedExample, banRules);
      expectShape(permanent, moderationBannedExample, banRules);
      expect((permanent as { metadata: { expires_at: unknown } }).metadata.expires_at).toBeNull();
    });
  });
});
