import { create, equals, fromBinary, toBinary } from '@bufbuild/protobuf';
import type { DescMessage, Message, MessageInitShape } from '@bufbuild/protobuf';
import { reflect } from '@bufbuild/protobuf/reflect';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import * as contracts from './index';
import {
  AuditRecordedSchema,
  ChatSubscriptionSchema,
  ChatSubscriptionState,
  BotConnectionStatus,
  BotControlAction,
  BotControlSchema,
  BotStatusSchema,
  ChangeKind,
  ChatOrigin,
  ChatReceivedSchema,
  ChatSendSchema,
  ChatSentSchema,
  CommandChangedSchema,
  CommandExecutedSchema,
  CommandKind,
  CommandPermission,
  Game,
  GameEventKind,
  GameEventSchema,
  KickAccountChangeKind,
  KickAccountSchema,
  KickEventSchema,
  ModerationActionKind,
  ModerationActionSchema,
  ModerationResultSchema,
  TeamChangedSchema,
  UserChangeKind,
  UserChangedSchema,
  UserRole,
} from './index';

const at = (iso: string) => timestampFromDate(new Date(iso));

// Round-trip fixtures: every field is set to a non-default value (also in nested messages), so
// that a field which does not survive the wire shows up. They are wire tests, not product
// examples: some combinations (an anonymous user with an id) would not happen at Kick.
const kickUser = (userId: string, username: string) => ({
  userId,
  username,
  isAnonymous: true,
  isVerified: true,
  channelSlug: username,
  profilePicture: `https://files.kick.com/images/user/${userId}/profile_image/a.webp`,
  identity: {
    usernameColor: '#1E90FF',
    badges: [
      { text: 'Moderator', type: 'moderator', count: 1 },
      { text: 'Subscriber', type: 'subscriber', count: 6 },
    ],
  },
});

interface Fixture {
  name: string;
  schema: DescMessage;
  message: Message;
}

function fixture<Desc extends DescMessage>(schema: Desc, init: MessageInitShape<Desc>, variant = ''): Fixture {
  return { name: `${schema.name}${variant}`, schema, message: create(schema, init) };
}

const fixtures: Fixture[] = [
  fixture(ChatReceivedSchema, {
    eventId: 'evt-1',
    occurredAt: at('2026-03-02T18:05:42Z'),
    kickMessageId: '01JNQ8Z6X3V5K2M7R9T1W4Y6A8',
    messageId: '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c',
    broadcasterUserId: '4377088',
    broadcasterUsername: 'some_streamer',
    broadcasterChannelSlug: 'some_streamer',
    ownerUserId: 'user-1',
    sender: kickUser('555002', 'viewer_b'),
    content: '!song [emote:37226:KEKW]',
    emotes: [{ emoteId: '37226', positions: [{ s: 6, e: 23 }] }],
    repliesTo: {
      messageId: '0a1b2c3d-4e5f-4061-8728-394a5b6c7d8e',
      content: 'anyone know the song?',
      sender: kickUser('555001', 'viewer_a'),
    },
    createdAt: at('2026-03-02T18:05:41Z'),
    receivedAt: at('2026-03-02T18:05:42.120Z'),
    isFromBot: true,
  }),
  fixture(ChatSendSchema, {
    eventId: 'evt-2',
    occurredAt: at('2026-03-02T18:05:42.200Z'),
    idempotencyKey: 'reply:5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c',
    broadcasterUserId: '4377088',
    ownerUserId: 'user-1',
    content: 'Hello! This is a test command. The bot is working correctly!',
    replyToMessageId: '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c',
    replyToUsername: 'viewer_b',
    origin: ChatOrigin.COMMAND,
    sourceReceivedAt: at('2026-03-02T18:05:42.120Z'),
    sourceSentAt: at('2026-03-02T18:05:41Z'),
  }),
  fixture(ChatSentSchema, {
    eventId: 'evt-3',
    occurredAt: at('2026-03-02T18:05:42.500Z'),
    idempotencyKey: 'reply:5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c',
    broadcasterUserId: '4377088',
    ownerUserId: 'user-1',
    isSent: true,
    error: 'only set when is_sent is false; set here so the round trip covers it',
    messageId: '7d0f5c2e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
    content: 'Hello! This is a test command. The bot is working correctly!',
    replyToMessageId: '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c',
    replyToUsername: 'viewer_b',
    sentAt: at('2026-03-02T18:05:42.480Z'),
    origin: ChatOrigin.GAME,
    sourceReceivedAt: at('2026-03-02T18:05:42.120Z'),
  }),
  fixture(CommandExecutedSchema, {
    eventId: 'evt-4',
    occurredAt: at('2026-03-02T18:05:42.210Z'),
    ownerUserId: 'user-1',
    broadcasterUserId: '4377088',
    command: 'test',
    invokedByUsername: 'viewer_b',
    invokedByUserId: '555002',
    messageId: '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c',
    response: 'Hello! This is a test command. The bot is working correctly!',
    executedAt: at('2026-03-02T18:05:42.205Z'),
    kind: CommandKind.CUSTOM,
  }),
  fixture(CommandChangedSchema, {
    eventId: 'evt-5',
    occurredAt: at('2026-03-02T18:00:00Z'),
    userId: 'user-1',
    kind: ChangeKind.UPDATED,
    command: 'discord',
    response: 'Join us at https://discord.example',
    previousCommand: 'disc',
    settings: {
      enabled: false,
      aliases: ['dc', 'server'],
      permission: CommandPermission.VIPS,
      globalCooldownSeconds: 30,
      userCooldownSeconds: 120,
      modsExempt: false,
    },
  }),
  fixture(BotStatusSchema, {
    eventId: 'evt-6',
    occurredAt: at('2026-03-02T18:00:01Z'),
    userId: 'user-1',
    broadcasterUserId: '4377088',
    isRunning: true,
    isConnected: true,
    status: BotConnectionStatus.ERROR,
    commandCount: 3,
    error: 'Kick refused the chat subscription',
    botEnabled: true,
    notListeningReason: 'subscription-failed',
  }),
  fixture(ChatSubscriptionSchema, {
    eventId: 'evt-sub-1',
    occurredAt: at('2026-03-02T18:00:02Z'),
    userId: 'user-1',
    broadcasterUserId: '4377088',
    state: ChatSubscriptionState.FAILED,
    error: 'event subscription limit reached',
    requestId: 'req-1',
    isRemovedByAdmin: true,
  }),
  fixture(AuditRecordedSchema, {
    eventId: 'evt-audit-1',
    occurredAt: at('2026-03-02T18:30:00Z'),
    actorUserId: 'admin-1',
    actorUsername: 'admin',
    action: 'webhook.subscribed',
    targetType: 'user',
    targetId: 'user-1',
    targetUsername: 'some_streamer',
    details: { event: 'chat.message.sent', subscriptionId: '01JK7Z8Q4W2M6B3T5N9R1C0XYZ' },
  }),
  fixture(TeamChangedSchema, {
    eventId: 'evt-team-1',
    occurredAt: at('2026-03-02T18:31:00Z'),
    ownerUserId: 'user-1',
    ownerUsername: 'some_streamer',
    version: 3,
    editors: [{ userId: 'user-2', username: 'helper' }],
  }),
  fixture(BotControlSchema, {
    eventId: 'evt-7',
    occurredAt: at('2026-03-02T18:00:00.500Z'),
    userId: 'user-1',
    broadcasterUserId: '4377088',
    action: BotControlAction.START,
    requestId: 'req-42',
  }),
  fixture(UserChangedSchema, {
    eventId: 'evt-8',
    occurredAt: at('2026-03-01T10:00:00Z'),
    userId: 'user-1',
    kind: UserChangeKind.DEACTIVATED,
    username: 'some_streamer',
    role: UserRole.SUPER_ADMIN,
    isActive: true,
    tokenVersion: 3,
  }),
  fixture(KickAccountSchema, {
    eventId: 'evt-9',
    occurredAt: at('2026-03-01T10:05:00Z'),
    userId: 'user-1',
    kind: KickAccountChangeKind.NEEDS_RELINK,
    kickUserId: '4377088',
    kickUsername: 'some_streamer',
    kickEmail: 'streamer@example.com',
    profilePicture: 'https://files.kick.com/images/user/4377088/profile_image/a.webp',
    linkedAt: at('2026-03-01T10:04:59Z'),
    scopes: ['user:read', 'chat:write', 'moderation:ban'],
  }),
  fixture(ModerationActionSchema, {
    eventId: 'evt-mod-1',
    occurredAt: at('2026-03-02T18:10:00Z'),
    idempotencyKey: 'moderation:9c1e0f7a-2b44-4c1d-8a53-51f0c2d0b6e1',
    broadcasterUserId: '4377088',
    ownerUserId: 'user-1',
    kind: ModerationActionKind.TIMEOUT,
    messageId: '9c1e0f7a-2b44-4c1d-8a53-51f0c2d0b6e1',
    targetUserId: '123456',
    durationMinutes: 10,
    reason: 'Kickstand filter: links',
    logEntryId: 'moderation:9c1e0f7a-2b44-4c1d-8a53-51f0c2d0b6e1',
  }),
  fixture(ModerationResultSchema, {
    eventId: 'evt-mod-2',
    occurredAt: at('2026-03-02T18:10:01Z'),
    broadcasterUserId: '4377088',
    ownerUserId: 'user-1',
    logEntryId: 'moderation:9c1e0f7a-2b44-4c1d-8a53-51f0c2d0b6e1',
    kind: ModerationActionKind.BAN,
    ok: true,
    error: 'Kick did not grant moderation:ban',
  }),
  fixture(KickEventSchema, {
    eventId: 'evt-10',
    occurredAt: at('2026-03-02T18:04:12Z'),
    kickMessageId: '01JNQ8Z6X3V5K2M7R9T1W4Y6B9',
    subscriptionId: '01JNQ7A1B2C3D4E5F6G7H8J9K0',
    eventType: 'channel.followed',
    eventVersion: '1',
    messageTimestamp: at('2026-03-02T18:04:11Z'),
    broadcasterUserId: '4377088',
    ownerUserId: 'user-1',
    payloadJson: JSON.stringify({ broadcaster: { user_id: 4377088 }, follower: { user_id: 555003 } }),
  }),
  fixture(
    GameEventSchema,
    {
      eventId: 'evt-11',
      occurredAt: at('2026-03-02T18:30:00Z'),
      ownerUserId: 'user-1',
      broadcasterUserId: '4377088',
      gameId: 'game-1',
      game: Game.RAID_BOSS,
      kind: GameEventKind.ATTACKED,
      summary: 'viewer_b hit the boss with Axe for 420 damage',
      actorUsername: 'viewer_b',
      actorUserId: '555002',
      endsAt: at('2026-03-02T18:40:00Z'),
      leaderboard: [
        { rank: 1, username: 'viewer_b', value: 1260 },
        { rank: 2, username: 'viewer_a', value: 830 },
      ],
      details: {
        case: 'raidBoss',
        value: { hp: 11580, maxHp: 12000, damage: 420, weapon: 'Axe', isDefeated: true },
      },
    },
    ' (raid boss)',
  ),
  fixture(
    GameEventSchema,
    {
      eventId: 'evt-12',
      occurredAt: at('2026-03-02T19:00:00Z'),
      ownerUserId: 'user-1',
      broadcasterUserId: '4377088',
      gameId: 'game-2',
      game: Game.GUESS_MY_BALANCE,
      kind: GameEventKind.ENDED,
      summary: 'The balance was 1,234. viewer_a was closest with 1,200!',
      actorUsername: 'some_streamer',
      actorUserId: '4377088',
      endsAt: at('2026-03-02T19:00:00Z'),
      leaderboard: [{ rank: 1, username: 'viewer_a', value: 1200 }],
      details: { case: 'guessMyBalance', value: { guess: 1200, balance: 1234, guessCount: 17 } },
    },
    ' (guess my balance)',
  ),
];

/**
 * Paths of the fields left at their default, recursively into our own sub-messages (not into
 * well-known types such as Timestamp); a oneof counts as set when one member is.
 */
function unsetFields(message: ReflectMessage, path = ''): string[] {
  const unset: string[] = [];
  for (const field of message.fields) {
    const fieldPath = `${path}${field.name}`;
    if (field.oneof) {
      if (message.oneofCase(field.oneof) === undefined) unset.push(`${path}${field.oneof.name}`);
      if (message.oneofCase(field.oneof) !== field) continue;
    } else if (!message.isSet(field)) {
      unset.push(fieldPath);
      continue;
    }
    if (field.fieldKind === 'message' && field.message.typeName.startsWith('google.protobuf.')) continue;
    if (field.fieldKind === 'message') {
      unset.push(...unsetFields(message.get(field), `${fieldPath}.`));
    } else if (field.fieldKind === 'list' && field.listKind === 'message') {
      let index = 0;
      for (const item of message.get(field))
        unset.push(...unsetFields(item as ReflectMessage, `${fieldPath}[${index++}].`));
    }
  }
  return [...new Set(unset)];
}

/** A field number no version of any message uses, as a newer producer might add. */
function fieldFromNewerProducer(): Uint8Array {
  return new BinaryWriter().tag(1000, WireType.LengthDelimited).string('a field this consumer does not know').finish();
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(a.length + b.length);
  bytes.set(a);
  bytes.set(b, a.length);
  return bytes;
}

describe('event contracts', () => {
  test('when the package is listed, then every event message (one with event_id) has a round-trip fixture', () => {
    const eventMessages = (Object.values(contracts) as unknown[])
      .filter((value): value is DescMessage => (value as DescMessage | undefined)?.kind === 'message')
      .filter((schema) => schema.fields.some((field) => field.name === 'event_id'))
      .map((schema) => schema.name)
      .sort();
    expect(eventMessages).toHaveLength(16);
    expect([...new Set(fixtures.map((f) => f.schema.name))].sort()).toEqual(eventMessages);
  });

  test.each(fixtures)(
    'when $name has every field set, then the fixture really sets every field',
    ({ schema, message }) => {
      expect(unsetFields(reflect(schema, message))).toEqual([]);
    },
  );

  test.each(fixtures)(
    'when $name goes through toBinary/fromBinary, then it comes back equal',
    ({ schema, message }) => {
      const decoded = fromBinary(schema, toBinary(schema, message));
      expect(decoded).toEqual(message);
      expect(equals(schema, decoded, message)).toBe(true);
    },
  );

  test.each(fixtures)(
    'when $name carries a field from a newer producer, then it decodes and the field passes through',
    ({ schema, message }) => {
      const newer = fieldFromNewerProducer();
      const decoded = fromBinary(schema, concat(toBinary(schema, message), newer));
      expect(equals(schema, decoded, message)).toBe(true);
      const reEncoded = toBinary(schema, decoded);
      expect(Array.from(reEncoded.subarray(reEncoded.length - newer.length))).toEqual(Array.from(newer));
    },
  );

  test('when an older producer leaves a field out, then the consumer reads its default', () => {
    const older = create(ChatReceivedSchema, { eventId: 'evt-1', messageId: 'm-1', broadcasterUserId: '4377088' });
    const decoded = fromBinary(ChatReceivedSchema, toBinary(ChatReceivedSchema, older));
    expect(decoded.isFromBot).toBe(false);
    expect(decoded.repliesTo).toBeUndefined();
    expect(decoded.emotes).toEqual([]);
    expect(decoded.ownerUserId).toBe('');
  });

  test('when a Kick user id is not an integer, then encoding refuses it', () => {
    const bad = create(ChatSendSchema, { broadcasterUserId: 'some_streamer' });
    expect(() => toBinary(ChatSendSchema, bad)).toThrow();
  });

  test('when an optional reply field is unset, then it stays unset after the wire', () => {
    const plain = create(ChatSendSchema, { content: 'hi', broadcasterUserId: '4377088' });
    const decoded = fromBinary(ChatSendSchema, toBinary(ChatSendSchema, plain));
    expect(decoded.replyToMessageId).toBeUndefined();
    expect(decoded.replyToUsername).toBeUndefined();
  });
});
