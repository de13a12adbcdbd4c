import { create, fromBinary, fromJson, toBinary, type DescMessage, type Message } from '@bufbuild/protobuf';
import { Int32ValueSchema, StructSchema } from '@bufbuild/protobuf/wkt';
import {
  AuditRecordedSchema,
  ChatReceivedSchema,
  ChatSendSchema,
  CommandChangedSchema,
  GameEventSchema,
  KickEmoteSchema,
  KickUserSchema,
  TeamChangedSchema,
  type ChatReceived,
} from '@kickstand/proto';
import { copyAsDecoded } from './decoded-copy';

/**
 * The copy must be, for every input, what the library's way gives: `create` + `toBinary` (what
 * Kafka's publish does; it throws for a message that does not fit) + `fromBinary` (what a Kafka
 * consumer gets). These tests compare the two on realistic messages of each field kind and on
 * inputs that do not fit, value by value, key order included.
 */

type Outcome = { error: string } | { shape: unknown; bytes: number[] };

/** The library's way: Kafka's publish, then its consumer's decode. */
function libraryOutcome(schema: DescMessage, init: unknown): Outcome {
  try {
    const bytes = toBinary(schema, create(schema, init as Message));
    return { shape: shape(fromBinary(schema, bytes)), bytes: [...bytes] };
  } catch (error) {
    return { error: String(error) };
  }
}

function copyOutcome(schema: DescMessage, init: unknown): Outcome {
  try {
    const { message, value } = copyAsDecoded(schema, init, true);
    return { shape: shape(message), bytes: [...(value ?? toBinary(schema, message))] };
  } catch (error) {
    return { error: String(error) };
  }
}

/** A value as comparable data: own keys in their order, -0, NaN and bigint told apart. */
function shape(value: unknown): unknown {
  if (typeof value === 'bigint') return { bigint: String(value) };
  if (typeof value === 'number')
    return Number.isFinite(value) && !Object.is(value, -0)
      ? value
      : { number: String(Object.is(value, -0) ? '-0' : value) };
  if (value === undefined) return { undefined: true };
  if (Array.isArray(value)) return ['array', ...value.map(shape)];
  if (value instanceof Uint8Array) return { bytes: [...value] };
  if (typeof value === 'object' && value !== null) {
    return ['object', ...Object.entries(value).map(([key, field]) => [key, shape(field)])];
  }
  return value;
}

/** Every object and array inside `value` (itself included). */
function objectsIn(value: unknown, found: Set<object> = new Set()): Set<object> {
  if (typeof value === 'object' && value !== null && !found.has(value)) {
    found.add(value);
    for (const field of Object.values(value)) objectsIn(field, found);
  }
  return found;
}

const at = { seconds: 1_764_150_000n, nanos: 123_000_000 };

/** A chat line as kick-link's `toChatReceived` makes it. */
function chatLine(): Record<string, unknown> {
  return {
    eventId: 'kick:01JD0000000000000000000042',
    occurredAt: { ...at },
    kickMessageId: '01JD0000000000000000000042',
    messageId: '6f1c2a3e-0042-4b5c-9d8e-000000000042',
    broadcasterUserId: '100042',
    broadcasterUsername: 'streamer_42',
    broadcasterChannelSlug: 'streamer-42',
    ownerUserId: 'user-42',
    sender: {
      userId: '5000042',
      username: 'viewer_42',
      isVerified: true,
      channelSlug: 'viewer-42',
      profilePicture: 'https://files.kick.com/images/user/42/profile_image/x.webp',
      identity: { usernameColor: '#1475E1', badges: [{ text: 'Subscriber', type: 'subscriber', count: 3 }] },
    },
    content: 'gg everyone 🎉 [emote:39261:kkHuh]',
    emotes: [{ emoteId: '39261', positions: [{ s: 15, e: 32 }] }],
    createdAt: { ...at },
    receivedAt: { ...at },
    isFromBot: false,
  };
}

/** The chat line with one badge of `count`. */
function withBadgeCount(count: unknown): Record<string, unknown> {
  const line = chatLine();
  line.sender = { userId: '7', identity: { badges: [{ text: 'x', count }] } };
  return line;
}

const gameEvent = (details: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  eventId: 'g1',
  occurredAt: { ...at },
  broadcasterUserId: '100042',
  game: 1,
  kind: 2,
  leaderboard: [
    { rank: 1, username: 'a', value: 12.5 },
    { rank: 2, username: 'b', value: -0 },
  ],
  details,
  ...extra,
});

/** Realistic messages of every field kind the topics use. */
const fitting: Array<[string, DescMessage, unknown]> = [
  ['a chat line', ChatReceivedSchema, chatLine()],
  [
    'a command (no emotes, no badges, no replies_to)',
    ChatReceivedSchema,
    { ...chatLine(), content: '$c1', emotes: [] },
  ],
  [
    'a chat line made with create (a message: create keeps it)',
    ChatReceivedSchema,
    create(ChatReceivedSchema, chatLine()),
  ],
  [
    'a chat line decoded from bytes',
    ChatReceivedSchema,
    fromBinary(ChatReceivedSchema, toBinary(ChatReceivedSchema, create(ChatReceivedSchema, chatLine()))),
  ],
  ['an empty init', ChatReceivedSchema, {}],
  [
    'a game event with a oneof case',
    GameEventSchema,
    gameEvent({ case: 'raidBoss', value: { hp: 10, maxHp: 100, weapon: 'axe' } }),
  ],
  [
    'a game event with doubles',
    GameEventSchema,
    gameEvent({ case: 'guessMyBalance', value: { guess: 1e300, balance: -0.25 } }),
  ],
  ['a game event with no oneof case', GameEventSchema, gameEvent({ case: undefined })],
  ['an unknown enum number (proto3 enums are open)', GameEventSchema, gameEvent(undefined, { kind: 99 })],
  [
    'an audit record with a map',
    AuditRecordedSchema,
    { eventId: 'a', details: { b: '2', a: '1', '10': 'ten', '2': 'two' } },
  ],
  [
    'a command change with optional fields set to their zero',
    CommandChangedSchema,
    { command: 'hi', settings: { enabled: false, aliases: ['x', 'y'], globalCooldownSeconds: 0, modsExempt: true } },
  ],
  ['a chat.send with an optional string', ChatSendSchema, { content: 'hi', replyToMessageId: '' }],
  ['a team change with uint32 and repeated messages', TeamChangedSchema, { version: 4_294_967_295, editors: [{}, {}] }],
  [
    'a Struct from JSON (values in oneofs, nested)',
    StructSchema,
    fromJson(StructSchema, { a: [1, 'two', null, { b: true }] }),
  ],
  ['an Int32Value', Int32ValueSchema, { value: -5 }],
];

describe('copyAsDecoded', () => {
  test.each(fitting)(
    'when %s is published, then the copy is what decoding its bytes gives, made without them, and its bytes are the encoding',
    (_, schema, init) => {
      // Act + Assert
      expect(copyOutcome(schema, init)).toEqual(libraryOutcome(schema, init));
      expect(copyAsDecoded(schema, init, true).value).toBeUndefined(); // the fast way was taken
    },
  );

  test('when a chat line is copied, then it is made without encoding, deep-frozen, and shares no object with the publisher', () => {
    // Arrange
    const line = chatLine();
    // Act
    const { message, value } = copyAsDecoded(ChatReceivedSchema, line, true);
    // Assert
    expect(value).toBeUndefined(); // no bytes made: the fast way was taken
    const objects = objectsIn(message);
    expect(objects.size).toBe(12); // the message, 3 timestamps, sender, identity, 3 lists, their 3 items
    for (const object of objects) expect(Object.isFrozen(object)).toBe(true);
    for (const object of objectsIn(line)) expect(objects.has(object)).toBe(false);
    expect(Object.isFrozen(line.sender)).toBe(false);
  });

  test('when a message made with create is copied, then the copy is a new object, frozen, and the publisher keeps its own writable', () => {
    // Arrange: create keeps nested messages as they are, so decoding was what made them new
    const sender = create(KickUserSchema, { userId: '9', username: 'a' });
    const line = create(ChatReceivedSchema, { ...chatLine(), sender });
    // Act
    const { message } = copyAsDecoded(ChatReceivedSchema, line, true);
    sender.username = 'changed';
    // Assert
    expect((message as ChatReceived).sender?.username).toBe('a');
    expect(Object.isFrozen(sender)).toBe(false);
    expect(objectsIn(message).has(sender)).toBe(false);
  });

  test('when freezing is off, then the copy is writable', () => {
    // Act
    const { message } = copyAsDecoded(ChatReceivedSchema, chatLine(), false);
    // Assert
    const line = message as ChatReceived;
    line.content = 'changed';
    expect(line.content).toBe('changed');
    expect(Object.isFrozen(line.sender)).toBe(false);
  });

  test.each<[string, DescMessage, unknown, string]>([
    ['an int32 of 1.5', ChatReceivedSchema, withBadgeCount(1.5), 'invalid int32: 1.5'],
    ['an int32 of NaN', ChatReceivedSchema, withBadgeCount(Number.NaN), 'invalid int32: NaN'],
    ['an int32 of 2^40', ChatReceivedSchema, withBadgeCount(2 ** 40), 'invalid int32: 1099511627776'],
    ['an int32 of Infinity', ChatReceivedSchema, withBadgeCount(Infinity), 'invalid int32: Infinity'],
    ['a string that is no number in an int32', ChatReceivedSchema, withBadgeCount('three'), 'invalid int32: NaN'],
    ['a bigint in an int32', ChatReceivedSchema, withBadgeCount(3n), 'invalid int32: bigint'],
    ['a boolean in an int32', ChatReceivedSchema, withBadgeCount(true), 'invalid int32: boolean'],
    ['an int64 that is no integer', ChatReceivedSchema, { broadcasterUserId: '12x' }, 'Cannot convert 12x to a BigInt'],
    [
      'an int64 past 2^63',
      ChatReceivedSchema,
      { broadcasterUserId: '9223372036854775808' },
      'invalid int64: 9223372036854775808',
    ],
    ['a uint32 below 0', TeamChangedSchema, { version: -1 }, 'invalid uint32: -1'],
    ['a uint32 of 2^32', TeamChangedSchema, { version: 2 ** 32 }, 'invalid uint32: 4294967296'],
    ['an enum of 1.5', GameEventSchema, { kind: 1.5 }, 'invalid int32: 1.5'],
    [
      'an int32 of 1.5 in a oneof case',
      GameEventSchema,
      gameEvent({ case: 'raidBoss', value: { hp: 1.5 } }),
      'invalid int32: 1.5',
    ],
    [
      'an optional int32 of 1.5',
      CommandChangedSchema,
      { settings: { userCooldownSeconds: 1.5 } },
      'invalid int32: 1.5',
    ],
  ])('when a message has %s, then it is refused with the encoder error Kafka gives', (_, schema, init, reason) => {
    // Act + Assert
    expect(() => copyAsDecoded(schema, init, true)).toThrow(reason);
    expect(copyOutcome(schema, init)).toEqual(libraryOutcome(schema, init));
  });

  /**
   * Values at the edges of their type, and values that do not plainly fit, which the copy leaves
   * to the library. Some the encoder quietly accepts (a number in a string field is written as its
   * decimal), some it refuses; the bus must do exactly the same.
   */
  const unusual: Array<[string, DescMessage, unknown]> = [
    ['an int32 of -0', ChatReceivedSchema, withBadgeCount(-0)],
    ['a numeric string in an int32', ChatReceivedSchema, withBadgeCount('5')],
    ['an int32 at its limits', ChatReceivedSchema, withBadgeCount(-(2 ** 31))],
    ['a number in a string field', ChatReceivedSchema, { content: 5 }],
    ['an object in a string field', ChatReceivedSchema, { content: {} }],
    ['a lone surrogate in a string', ChatReceivedSchema, { content: 'a\uD800b' }],
    ['null in a string field', ChatReceivedSchema, { content: null }],
    ['an int64 with leading zeros', ChatReceivedSchema, { broadcasterUserId: '007' }],
    ['an int64 of "-0"', ChatReceivedSchema, { broadcasterUserId: '-0' }],
    ['an int64 given as a number', ChatReceivedSchema, { broadcasterUserId: 12 }],
    ['an int64 given as a bigint', ChatReceivedSchema, { broadcasterUserId: 12n }],
    ['an int64 at its limits', ChatReceivedSchema, { broadcasterUserId: '-9223372036854775808' }],
    ['a long int64 in range', ChatReceivedSchema, { broadcasterUserId: '9223372036854775807' }],
    ['timestamp seconds as a number', ChatReceivedSchema, { occurredAt: { seconds: 5 } }],
    ['timestamp seconds as a string', ChatReceivedSchema, { occurredAt: { seconds: '5' } }],
    ['timestamp seconds past 2^63', ChatReceivedSchema, { occurredAt: { seconds: 2n ** 63n } }],
    ['timestamp seconds of 1.5', ChatReceivedSchema, { occurredAt: { seconds: 1.5 } }],
    ['a string in a bool', ChatReceivedSchema, { isFromBot: 'yes' }],
    ['a number in a bool', ChatReceivedSchema, { isFromBot: 0 }],
    ['a string in a double', GameEventSchema, gameEvent({ case: 'guessMyBalance', value: { guess: 'abc' } })],
    [
      'NaN and Infinity in doubles',
      GameEventSchema,
      gameEvent({ case: 'guessMyBalance', value: { guess: NaN, balance: -Infinity } }),
    ],
    ['a string in an enum', GameEventSchema, { kind: 'GAME_EVENT_KIND_STARTED' }],
    ['an enum of -0', GameEventSchema, { kind: -0 }],
    ['a string as a message', ChatReceivedSchema, { sender: 'x' }],
    ['an array as a message', ChatReceivedSchema, { sender: [] }],
    [
      'a message of another type as a message',
      ChatReceivedSchema,
      { sender: create(KickEmoteSchema, { emoteId: '1' }) },
    ],
    ['a string as a list', ChatReceivedSchema, { emotes: 'ab' }],
    ['an object as a list', ChatReceivedSchema, { emotes: {} }],
    ['null in a list', ChatReceivedSchema, { emotes: [null] }],
    ['a number in a list of strings', CommandChangedSchema, { settings: { aliases: ['a', 5] } }],
    ['a number as a map value', AuditRecordedSchema, { details: { a: 1 } }],
    ['null as a map value', AuditRecordedSchema, { details: { a: null } }],
    ['a Map as a map', AuditRecordedSchema, { details: new Map([['a', 'b']]) }],
    ['an array as a map', AuditRecordedSchema, { details: ['a'] }],
    ['an unknown oneof case', GameEventSchema, gameEvent({ case: 'nope', value: {} })],
    ['a oneof case without a value', GameEventSchema, gameEvent({ case: 'raidBoss' })],
    ['a oneof case with null', GameEventSchema, gameEvent({ case: 'raidBoss', value: null })],
    ['a string as a oneof', GameEventSchema, gameEvent('raidBoss')],
    ['null optional fields', CommandChangedSchema, { settings: { enabled: null, globalCooldownSeconds: undefined } }],
    [
      'a message with an undefined field',
      ChatReceivedSchema,
      { ...create(ChatReceivedSchema, chatLine()), content: undefined },
    ],
    [
      'a message holding a plain object as a nested message',
      ChatReceivedSchema,
      { ...create(ChatReceivedSchema, chatLine()), sender: { userId: '1' } },
    ],
    [
      'a message with unknown fields (they travel)',
      ChatReceivedSchema,
      fromBinary(
        ChatReceivedSchema,
        new Uint8Array([...toBinary(ChatReceivedSchema, create(ChatReceivedSchema, chatLine())), 0xf8, 0x01, 0x07]),
      ),
    ],
    ['no init at all', ChatReceivedSchema, undefined],
    ['a string as the init', ChatReceivedSchema, 'x'],
  ];

  test.each(unusual)('when a message has %s, then the bus does what Kafka does', (_, schema, init) => {
    // Act + Assert
    expect(copyOutcome(schema, init)).toEqual(libraryOutcome(schema, init));
  });
});
