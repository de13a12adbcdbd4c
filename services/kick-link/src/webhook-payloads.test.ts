import { timestampFromMs } from '@kickstand/proto';
import {
  chatMessageSentSchema,
  parseDelivery,
  plainChatMessage,
  toChatReceived,
  type DeliveryContext,
} from './webhook-payloads';

const json = (body: unknown) => Buffer.from(JSON.stringify(body));

// The examples of kick-api.md §8.9, verbatim where possible.
const streamer = {
  is_anonymous: false,
  user_id: 4377088,
  username: 'some_streamer',
  is_verified: true,
  profile_picture: '',
  channel_slug: 'some_streamer',
  identity: null,
};
const viewer = (id: number, name: string) => ({
  is_anonymous: false,
  user_id: id,
  username: name,
  is_verified: false,
  profile_picture: '',
  channel_slug: name,
  identity: null,
});

const chatExample = {
  message_id: '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c',
  replies_to: {
    message_id: '0a1b2c3d-4e5f-4061-8728-394a5b6c7d8e',
    content: 'anyone know the song?',
    sender: viewer(555001, 'viewer_a'),
  },
  broadcaster: { ...streamer, profile_picture: 'https://files.kick.com/images/user/4377088/profile_image/a.webp' },
  sender: {
    ...viewer(555002, 'viewer_b'),
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

const examples: Record<string, unknown> = {
  'channel.followed': { broadcaster: streamer, follower: viewer(555003, 'new_fan') },
  'channel.subscription.new': {
    broadcaster: streamer,
    subscriber: viewer(555004, 'first_timer'),
    duration: 1,
    created_at: '2026-03-02T18:10:00Z',
    expires_at: '2026-04-02T18:10:00Z',
  },
  'channel.subscription.renewal': {
    broadcaster: streamer,
    subscriber: viewer(555005, 'loyal_one'),
    duration: 7,
    created_at: '2025-08-02T11:00:00Z',
    expires_at: '2026-04-02T11:00:00Z',
  },
  'channel.subscription.gifts': {
    broadcaster: streamer,
    gifter: {
      is_anonymous: true,
      user_id: null,
      username: null,
      is_verified: null,
      profile_picture: null,
      channel_slug: null,
      identity: null,
    },
    giftees: [viewer(555007, 'lucky_1'), viewer(555008, 'lucky_2')],
    created_at: '2026-03-02T18:12:30Z',
    expires_at: '2026-04-02T18:12:30Z',
  },
  'livestream.status.updated': {
    broadcaster: streamer,
    is_live: false,
    title: 'ranked grind',
    started_at: '2026-03-03T05:00:04+11:00',
    ended_at: '2026-03-03T09:00:04+11:00',
  },
  'livestream.metadata.updated': {
    broadcaster: streamer,
    metadata: {
      title: 'ranked grind — road to top 500',
      language: 'en',
      has_mature_content: false,
      category: {
        id: 15,
        name: 'Just Chatting',
        thumbnail: 'https://files.kick.com/images/subcategories/15/banner.webp',
      },
      Category: { id: 15, name: 'Just Chatting', thumbnail: '' },
    },
  },
  'moderation.banned': {
    broadcaster: streamer,
    moderator: viewer(555009, 'trusted_mod'),
    banned_user: viewer(555010, 'spammer'),
    metadata: { reason: 'link spam', created_at: '2026-03-02T18:20:00Z', expires_at: null },
  },
};

const context: DeliveryContext = {
  kickMessageId: '01JK7Z8Q4W2M6B3T5N9R1C0XYZ',
  subscriptionId: '01JK7Z8Q4W2M6B3T5N9R1C0SUB',
  eventType: 'chat.message.sent',
  eventVersion: '1',
  messageTimestamp: new Date('2026-03-02T18:05:42Z'),
  receivedAt: new Date('2026-03-02T18:05:42.250Z'),
  ownerUserId: 'u1',
};

describe('parseDelivery', () => {
  test("when the chat example of kick-api.md arrives, then it parses and maps to chat.received's fields", () => {
    const parsed = parseDelivery('chat.message.sent', '1', json(chatExample));
    if (parsed.kind !== 'chat') throw new Error(`expected chat, got ${parsed.kind}`);

    const message = toChatReceived(parsed.payload, context, false);

    expect(parsed.broadcasterUserId).toBe('4377088');
    expect(message).toEqual({
      eventId: context.kickMessageId,
      occurredAt: timestampFromMs(1772474742250),
      kickMessageId: context.kickMessageId,
      messageId: '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c',
      broadcasterUserId: '4377088',
      broadcasterUsername: 'some_streamer',
      broadcasterChannelSlug: 'some_streamer',
      ownerUserId: 'u1',
      sender: {
        userId: '555002',
        username: 'viewer_b',
        isAnonymous: false,
        isVerified: false,
        channelSlug: 'viewer_b',
        profilePicture: '',
        identity: {
          usernameColor: '#1E90FF',
          badges: [
            { text: 'Moderator', type: 'moderator', count: 0 },
            { text: 'Subscriber', type: 'subscriber', count: 6 },
          ],
        },
      },
      content: '!song [emote:37226:KEKW]',
      emotes: [{ emoteId: '37226', positions: [{ s: 6, e: 23 }] }],
      repliesTo: {
        messageId: '0a1b2c3d-4e5f-4061-8728-394a5b6c7d8e',
        content: 'anyone know the song?',
        sender: {
          userId: '555001',
          username: 'viewer_a',
          isAnonymous: false,
          isVerified: false,
          channelSlug: 'viewer_a',
          profilePicture: '',
          identity: undefined,
        },
      },
      createdAt: timestampFromMs(1772474741000),
      receivedAt: timestampFromMs(1772474742250),
      isFromBot: false,
    });
  });

  test('when replies_to is null or absent, emotes null, created_at missing and unknown fields present, then it still parses', () => {
    const { replies_to: _reply, created_at: _created, ...rest } = chatExample;
    for (const body of [
      { ...rest, emotes: null, brand_new_field: { x: 1 } },
      { ...rest, replies_to: null, emotes: [] },
    ]) {
      const parsed = parseDelivery('chat.message.sent', '1', json(body));
      if (parsed.kind !== 'chat') throw new Error(`expected chat, got ${parsed.kind}`);
      const message = toChatReceived(parsed.payload, context, false);
      expect(message.repliesTo).toBeUndefined();
      expect(message.emotes).toEqual([]);
      // without created_at, Kick's message timestamp stands in
      expect(message.createdAt).toEqual(timestampFromMs(1772474742000));
    }
  });

  test("when a signed chat line is 90 KB, then it is accepted and published cut to Kick's 500 characters", () => {
    const parsed = parseDelivery(
      'chat.message.sent',
      '1',
      json({
        ...chatExample,
        content: 'x'.repeat(90_000),
        replies_to: { ...chatExample.replies_to, content: 'y'.repeat(600) },
      }),
    );
    if (parsed.kind !== 'chat') throw new Error(`expected chat, got ${parsed.kind}`);
    const message = toChatReceived(parsed.payload, context, false);
    expect(message.content).toBe('x'.repeat(500));
    expect(message.repliesTo?.content).toBe('y'.repeat(500));
  });

  test.each(Object.keys(examples))('when the %s example arrives, then it is a kick.event of the channel', (type) => {
    expect(parseDelivery(type, '1', json(examples[type]))).toEqual({ kind: 'event', broadcasterUserId: '4377088' });
  });

  test.each([
    [
      'a chat message without content',
      'chat.message.sent',
      { ...chatExample, content: undefined },
      /^invalid: content: /,
    ],
    [
      'a chat message without a sender',
      'chat.message.sent',
      { ...chatExample, sender: undefined },
      /^invalid: sender: /,
    ],
    [
      'a chat message whose broadcaster has no id',
      'chat.message.sent',
      { ...chatExample, broadcaster: { ...streamer, user_id: null } },
      /^no-broadcaster: /,
    ],
    [
      'a follow body sent as a subscription',
      'channel.subscription.new',
      examples['channel.followed'],
      /^invalid: subscriber: /,
    ],
    [
      'a stream status without is_live',
      'livestream.status.updated',
      { broadcaster: streamer, title: 'x', started_at: '2026-03-02T18:00:04Z', ended_at: null },
      /^invalid: is_live: /,
    ],
    ['an array', 'channel.followed', [], /^no-broadcaster: /],
    [
      'a broadcaster id that is no number',
      'channel.followed',
      { ...(examples['channel.followed'] as object), broadcaster: { user_id: 'abc' } },
      /^no-broadcaster: /,
    ],
  ])('when %s arrives, then it is unusable, with the reason', (_name, type, body, reason) => {
    expect(parseDelivery(type, '1', json(body))).toMatchObject({
      kind: 'unusable',
      reason: expect.stringMatching(reason),
    });
  });

  test('when a ban carries a bad date, then it is still an event (the date is dropped)', () => {
    const body = {
      ...(examples['moderation.banned'] as object),
      metadata: { reason: null, created_at: 'yesterday', expires_at: null },
    };
    expect(parseDelivery('moderation.banned', '1', json(body))).toEqual({
      kind: 'event',
      broadcasterUserId: '4377088',
    });
  });

  test('when the type is not a known one, or the version not 1, then it is unusable with the channel read when there is one', () => {
    expect(parseDelivery('channel.hype_train.started', '1', json({ broadcaster: { user_id: '42' } }))).toEqual({
      kind: 'unusable',
      reason: 'unknown-type: channel.hype_train.started',
      broadcasterUserId: '42',
    });
    expect(parseDelivery('toString', '1', json({}))).toEqual({
      kind: 'unusable',
      reason: 'unknown-type: toString',
      broadcasterUserId: null,
    });
    expect(parseDelivery('channel.followed', '2', json(examples['channel.followed']))).toEqual({
      kind: 'unusable',
      reason: 'unknown-version: channel.followed version 2',
      broadcasterUserId: '4377088',
    });
  });

  test('when the body is not JSON, then it is unusable without a channel', () => {
    expect(parseDelivery('channel.followed', '1', Buffer.from('{"broadcaster":'))).toEqual({
      kind: 'unusable',
      reason: 'not-json: the body is not JSON',
      broadcasterUserId: null,
    });
  });
});

describe('a chat line in the documented shape, read without the schema', () => {
  const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  /** As the bench sends them (tools/bench kick-delivery.ts): numeric ids, no replies, no emotes. */
  const benchLine = {
    message_id: '01JC7ABCDEFGHJKMNPQRSTVWXY',
    replies_to: null,
    broadcaster: { ...viewer(100001, 'channel_1'), identity: null },
    sender: { ...viewer(500001, 'viewer_1'), identity: { username_color: '#1E90FF', badges: [] } },
    content: '$dice',
    emotes: [],
    created_at: '2026-11-26T11:00:00Z',
  };

  test('when a chat line is in the documented shape, then it is read to exactly what the schema makes of it', () => {
    const sparse = {
      message_id: 7,
      broadcaster: { user_id: '4377088' },
      sender: { username: 'x', identity: {} },
      content: '',
    };
    for (const line of [chatExample, benchLine, sparse, { ...chatExample, extra: { kept: [1] } }]) {
      const plain = plainChatMessage(clone(line));
      expect(plain).toBeDefined();
      expect(plain).toStrictEqual(chatMessageSentSchema.parse(clone(line)));
    }
    expect(plainChatMessage(clone(sparse))).toStrictEqual({
      message_id: '7',
      broadcaster: { user_id: '4377088' },
      sender: { username: 'x', identity: { badges: [] } },
      content: '',
      emotes: [],
    });
  });

  test('when any field of a chat line is missing, null or of another type, then the delivery parses as the schema alone parses it', () => {
    const paths = [
      'message_id',
      'replies_to',
      'replies_to.message_id',
      'replies_to.content',
      'replies_to.sender',
      'replies_to.sender.user_id',
      'replies_to.sender.identity',
      'broadcaster',
      'broadcaster.user_id',
      'broadcaster.username',
      'broadcaster.is_anonymous',
      'broadcaster.is_verified',
      'broadcaster.profile_picture',
      'broadcaster.channel_slug',
      'broadcaster.identity',
      'sender',
      'sender.user_id',
      'sender.username',
      'sender.identity',
      'sender.identity.username_color',
      'sender.identity.badges',
      'sender.identity.badges.0',
      'sender.identity.badges.0.type',
      'sender.identity.badges.0.text',
      'sender.identity.badges.1.count',
      'content',
      'emotes',
      'emotes.0',
      'emotes.0.emote_id',
      'emotes.0.positions',
      'emotes.0.positions.0',
      'emotes.0.positions.0.s',
      'created_at',
    ];
    const values: unknown[] = [
      undefined,
      null,
      0,
      -0,
      -1,
      1.5,
      12,
      2 ** 60,
      '',
      '7',
      '007',
      ' 7',
      '-3',
      '1.5',
      'abc',
      true,
      false,
      [],
      [null],
      [1],
      {},
      { type: '' },
      { type: 'vip' },
      { s: '3', e: 4 },
      '2026-03-02T18:05:41Z',
      '2026-03-02T18:05:41+11:00',
      '2026-13-02T00:00:00Z',
      '2026-03-02',
    ];
    let seed = 22;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % below;
    };
    const outcomes = { plain: 0, schema: 0 };
    for (let round = 0; round < 4000; round += 1) {
      const line = clone(round % 2 === 0 ? chatExample : benchLine) as Record<string, unknown>;
      for (let change = 0; change <= random(3); change += 1) {
        const path = (paths[random(paths.length)] as string).split('.');
        let at: unknown = line;
        for (const key of path.slice(0, -1))
          at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
        if (typeof at !== 'object' || at === null) continue;
        const value = values[random(values.length)];
        if (value === undefined) delete (at as Record<string, unknown>)[path.at(-1) as string];
        else (at as Record<string, unknown>)[path.at(-1) as string] = clone(value);
      }
      const bySchema = chatMessageSentSchema.safeParse(clone(line));
      const plain = plainChatMessage(clone(line));
      outcomes[plain ? 'plain' : 'schema'] += 1;
      if (plain) expect({ round, plain }).toStrictEqual({ round, plain: bySchema.data });
      // and the door's answer for it: as before, whichever read it
      const parsed = parseDelivery('chat.message.sent', '1', json(line));
      if (bySchema.success) {
        expect(parsed).toStrictEqual({
          kind: 'chat',
          broadcasterUserId: bySchema.data.broadcaster.user_id,
          payload: bySchema.data,
        });
      } else {
        expect(parsed.kind).toBe('unusable');
      }
    }
    // both ways were taken, many times
    expect(outcomes.plain).toBeGreaterThan(500);
    expect(outcomes.schema).toBeGreaterThan(500);
  });
});
