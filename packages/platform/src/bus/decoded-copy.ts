import {
  create,
  fromBinary,
  isMessage,
  protoInt64,
  ScalarType,
  toBinary,
  type DescField,
  type DescMessage,
  type DescOneof,
  type Message,
} from '@bufbuild/protobuf';
import { isWrapperDesc } from '@bufbuild/protobuf/wkt';
import { deepFreeze } from './deep-freeze';

/**
 * What the in-process bus hands its groups for a published message: the object that decoding the
 * message's protobuf bytes would give (`fromBinary(toBinary(create(init)))`), made without the
 * bytes. Encoding and decoding a `chat.received` cost ~36 µs and ~42 KB of garbage per publish
 * (docs/performance.md, "The in-process bus", "Second round"); copying it field by field from
 * the schema costs a few µs.
 *
 * The copy keeps the three things encoding at publish was kept for:
 * - a message that does not fit its schema is refused exactly as the Kafka bus refuses it, with
 *   the same error: the copy takes only values whose encoding is certain (a string that is
 *   well-formed UTF-16, an int32 that is an integer in range, a bigint or canonical decimal
 *   string in int64's range, …). Anything else (a wrong type, 1.5 in an int32, a number where a
 *   string is expected, a message whose `$unknown` fields must travel) goes the library's way:
 *   `create` + `toBinary` (which throws what Kafka's publish throws) + `fromBinary`. So the bus
 *   accepts and refuses exactly what protobuf-es does, and the fast path only saves time.
 * - the copy shares no object with the publisher's (nested messages and arrays are new), and is
 *   deep-frozen when the bus freezes messages;
 * - its bytes, when a dead letter needs them, are `toBinary` of the copy: the same bytes, since
 *   the copy holds exactly the decoded values.
 *
 * The copy has the decoded object's shape too: `$typeName`, then the fields decoding always sets
 * (implicit presence, lists, maps, oneof groups) in declaration order, then the fields with
 * explicit presence (messages, `optional`) that are set, by field number, as decoding adds them.
 */

/** A converter's answer when the value is not one whose encoding it knows: the library decides. */
const unfit: unique symbol = Symbol('unfit');
type Unfit = typeof unfit;

/**
 * Copies one non-null value of a field as decoding would give it, or answers `unfit`. `strict`:
 * the enclosing message was passed as a message (not an init object), which `create` keeps as it
 * is, so nested values are read the way `toBinary` reads messages.
 */
type Copy = (value: unknown, freeze: boolean, strict: boolean) => unknown;

interface AlwaysMember {
  name: string;
  /** The value a decoded message has when the field is not on the wire. */
  zero: (freeze: boolean) => unknown;
  copy: Copy;
}

interface PresentField {
  name: string;
  copy: Copy;
}

interface Plan {
  typeName: string;
  /** False when the type uses something the copy does not handle (bytes, float, wrappers…). */
  isCopyable: boolean;
  /** Fields decoding always sets, and oneof groups, in declaration order. */
  always: AlwaysMember[];
  /** Fields with explicit presence, by field number. */
  present: PresentField[];
}

export interface PublishedMessage {
  /** What the groups receive. */
  message: Message;
  /** The message's bytes when they were made (the library's way); else a dead letter makes them (`toBinary`). */
  value: Uint8Array | undefined;
}

/**
 * The message the groups receive for `init` published on `schema`: throws, with protobuf-es's
 * error, when Kafka's publish would refuse it.
 */
export function copyAsDecoded(schema: DescMessage, init: unknown, freeze: boolean): PublishedMessage {
  const plan = planOf(schema);
  if (typeof init === 'object' && init !== null && !Array.isArray(init)) {
    const copy = copyMessage(plan, init, freeze, isMessage(init, schema));
    if (copy !== unfit) return { message: copy as Message, value: undefined };
  }
  // The library's way, for what the copy does not take: it refuses what Kafka refuses.
  const value = toBinary(schema, create(schema, init as Message));
  const message = fromBinary(schema, value);
  if (freeze) deepFreeze(message);
  return { message, value };
}

const plans = new WeakMap<DescMessage, Plan>();

/** The copy plan of a message type, made once per type from its descriptor. */
export function planOf(desc: DescMessage): Plan {
  const existing = plans.get(desc);
  if (existing) return existing;
  const plan: Plan = { typeName: desc.typeName, isCopyable: true, always: [], present: [] };
  plans.set(desc, plan); // before the fields: a type may nest itself
  // proto3 only (Kickstand's contracts): no default values, no groups (delimited encoding), no
  // closed enums; other editions go the library's way
  if (desc.file.edition !== 999 /* EDITION_PROTO3 */) plan.isCopyable = false;
  const zeroMessage = create(desc) as unknown as Record<string, unknown>;
  for (const member of desc.members) {
    if (member.kind === 'oneof') {
      const copy = oneofCopy(member);
      if (!copy) plan.isCopyable = false;
      else plan.always.push({ name: member.localName, zero: (freeze) => made({ case: undefined }, freeze), copy });
      continue;
    }
    const copy = fieldCopy(member);
    if (!copy) {
      plan.isCopyable = false;
      continue;
    }
    if (member.fieldKind === 'list') {
      plan.always.push({ name: member.localName, zero: (freeze) => made([], freeze), copy });
    } else if (member.fieldKind === 'map') {
      plan.always.push({ name: member.localName, zero: (freeze) => made({}, freeze), copy });
    } else if (member.fieldKind === 'message' || member.presence !== implicitPresence) {
      plan.present.push({ name: member.localName, copy });
    } else {
      const zero = zeroMessage[member.localName];
      plan.always.push({ name: member.localName, zero: () => zero, copy });
    }
  }
  const byNumber = new Map(desc.fields.map((field) => [field.localName, field.number]));
  plan.present.sort((a, b) => (byNumber.get(a.name) ?? 0) - (byNumber.get(b.name) ?? 0));
  return plan;
}

/** FeatureSet.FieldPresence.IMPLICIT */
const implicitPresence = 2;

function copyMessage(plan: Plan, source: object, freeze: boolean, strict: boolean): Message | Unfit {
  if (!plan.isCopyable) return unfit;
  const from = source as Record<string, unknown>;
  // `create` keeps a message as it is, unknown fields included, and `toBinary` writes them
  if (strict && from.$unknown !== undefined) return unfit;
  const target: Record<string, unknown> = { $typeName: plan.typeName };
  for (const member of plan.always) {
    const value = from[member.name];
    let copy: unknown;
    if (value === undefined || value === null) {
      // `create` skips an absent init field; in a message, `toBinary` would write it as it is
      if (strict) return unfit;
      copy = member.zero(freeze);
    } else {
      copy = member.copy(value, freeze, strict);
      if (copy === unfit) return unfit;
    }
    target[member.name] = copy;
  }
  for (const field of plan.present) {
    // `toBinary` sees a message's field only as its own property; `create` reads an init's as any
    const value = strict && !Object.hasOwn(from, field.name) ? undefined : from[field.name];
    if (value === undefined) continue;
    if (value === null) {
      if (strict) return unfit;
      continue;
    }
    const copy = field.copy(value, freeze, strict);
    if (copy === unfit) return unfit;
    target[field.name] = copy;
  }
  return made(target, freeze) as Message;
}

function made<T extends object>(value: T, freeze: boolean): T {
  return freeze ? Object.freeze(value) : value;
}

/** How one field's value is copied, or undefined when the copy does not handle the field. */
function fieldCopy(field: DescField): Copy | undefined {
  if (isSpecialField(field)) return undefined;
  switch (field.fieldKind) {
    case 'scalar':
      return scalarCopy(field.scalar, field.longAsString);
    case 'enum':
      return field.enum.open ? scalarCopy(ScalarType.INT32, false) : undefined;
    case 'message':
      return messageCopy(field.message);
    case 'list': {
      const item =
        field.listKind === 'message'
          ? messageCopy(field.message)
          : field.listKind === 'enum'
            ? field.enum.open
              ? scalarCopy(ScalarType.INT32, false)
              : undefined
            : scalarCopy(field.scalar, field.longAsString);
      return item && listCopy(item);
    }
    case 'map': {
      if (field.mapKey !== ScalarType.STRING) return undefined;
      const value =
        field.mapKind === 'message'
          ? messageCopy(field.message)
          : field.mapKind === 'enum'
            ? field.enum.open
              ? scalarCopy(ScalarType.INT32, false)
              : undefined
            : scalarCopy(field.scalar, false);
      return value && mapCopy(value);
    }
  }
}

function oneofCopy(oneof: DescOneof): Copy | undefined {
  const cases = new Map<string, Copy>();
  for (const field of oneof.fields) {
    const copy = fieldCopy(field);
    if (!copy) return undefined;
    cases.set(field.localName, copy);
  }
  return (value, freeze, strict) => {
    if (typeof value !== 'object' || value === null) return unfit;
    const selected = value as { case?: unknown; value?: unknown };
    if (selected.case === undefined) return made({ case: undefined }, freeze);
    const copy = typeof selected.case === 'string' ? cases.get(selected.case) : undefined;
    if (!copy || selected.value === undefined || selected.value === null) return unfit;
    const copied = copy(selected.value, freeze, strict);
    return copied === unfit ? unfit : made({ case: selected.case, value: copied }, freeze);
  };
}

/**
 * The fields `create` and `toBinary` treat specially: a wrapper (google.protobuf.Int32Value…) in a
 * singular field is its unwrapped value, a Struct outside a google.protobuf.Value is a JSON
 * object. The library's way handles them.
 */
function isSpecialField(field: DescField): boolean {
  if (field.message === undefined) return false;
  if (field.fieldKind === 'message' && field.oneof === undefined && isWrapperDesc(field.message)) return true;
  return field.message.typeName === 'google.protobuf.Struct' && field.parent.typeName !== 'google.protobuf.Value';
}

function messageCopy(desc: DescMessage): Copy {
  const plan = planOf(desc);
  return (value, freeze, strict) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return unfit;
    // `create` keeps a nested message of the field's type as it is and makes one from an init
    // object; inside a kept message, `toBinary` requires messages of the type
    const isOwnType = isMessage(value, desc);
    if (strict && !isOwnType) return unfit;
    return copyMessage(plan, value, freeze, isOwnType);
  };
}

function listCopy(item: Copy): Copy {
  return (value, freeze, strict) => {
    if (!Array.isArray(value)) return unfit;
    const copy: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const element: unknown = value[i];
      if (element === undefined || element === null) return unfit;
      const copied = item(element, freeze, strict);
      if (copied === unfit) return unfit;
      copy[i] = copied;
    }
    return made(copy, freeze);
  };
}

function mapCopy(entry: Copy): Copy {
  return (value, freeze, strict) => {
    if (typeof value !== 'object' || value === null) return unfit;
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return unfit;
    const copy: Record<string, unknown> = {};
    for (const [key, element] of Object.entries(value)) {
      if (key === '__proto__' || !isWellFormed(key) || element === undefined || element === null) return unfit;
      const copied = entry(element, freeze, strict);
      if (copied === unfit) return unfit;
      copy[key] = copied;
    }
    return made(copy, freeze);
  };
}

const int32Min = -0x8000_0000;
const int32Max = 0x7fff_ffff;
const uint32Max = 0xffff_ffff;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;
/** A decimal as decoding writes one: no sign on zero, no leading zeros. */
const canonicalInt = /^(?:0|-?[1-9][0-9]{0,19})$/;
const canonicalUint = /^(?:0|[1-9][0-9]{0,19})$/;

/**
 * Copies a scalar that the writer takes as it is and decoding gives back unchanged, else `unfit`.
 * `+ 0` turns -0 into 0: an integer field encodes -0 as 0.
 */
function scalarCopy(type: ScalarType, longAsString: boolean): Copy | undefined {
  switch (type) {
    case ScalarType.STRING:
      // TextEncoder writes a lone surrogate as U+FFFD: such a string does not come back as it was
      return (value) => (typeof value === 'string' && isWellFormed(value) ? value : unfit);
    case ScalarType.BOOL:
      return (value) => (typeof value === 'boolean' ? value : unfit);
    case ScalarType.DOUBLE:
      return (value) => (typeof value === 'number' ? value : unfit);
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return (value) =>
        typeof value === 'number' && Number.isInteger(value) && value >= int32Min && value <= int32Max
          ? value + 0
          : unfit;
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return (value) =>
        typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= uint32Max ? value + 0 : unfit;
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      if (!protoInt64.supported) return undefined;
      return longAsString
        ? (value) =>
            typeof value === 'string' && isInt64String(value, canonicalInt, int64Min, int64Max) ? value : unfit
        : (value) => (typeof value === 'bigint' && value >= int64Min && value <= int64Max ? value : unfit);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      if (!protoInt64.supported) return undefined;
      return longAsString
        ? (value) => (typeof value === 'string' && isInt64String(value, canonicalUint, 0n, uint64Max) ? value : unfit)
        : (value) => (typeof value === 'bigint' && value >= 0n && value <= uint64Max ? value : unfit);
    default:
      // float (range and rounding) and bytes: the library's way
      return undefined;
  }
}

function isInt64String(value: string, pattern: RegExp, min: bigint, max: bigint): boolean {
  if (!pattern.test(value)) return false;
  // up to 15 digits is always in range (and exact): no BigInt needed
  if (value.length <= 15) return true;
  const n = BigInt(value);
  return n >= min && n <= max;
}

/** `String.prototype.isWellFormed` (Node 20), which the ES2023 lib the repo compiles against does not declare. */
function isWellFormed(value: string): boolean {
  return (value as unknown as { isWellFormed(): boolean }).isWellFormed();
}
