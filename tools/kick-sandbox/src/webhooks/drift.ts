import type { DriftName } from '../real-kick';

/**
 * How real deliveries drift from kick-api.md's examples (§8.10 "Shapes drift"): documented objects
 * and arrays arrive null, unknown fields appear, optional fields go missing, ids come as strings.
 * Pure functions on a copy of the payload; the result is what gets signed, so a drifted delivery
 * still verifies.
 */

/** The extra delivery the `unknownEvent` drift sends: a type no documentation mentions. */
export const unknownDriftEventType = 'channel.sandbox_unknown_event';

/** Added at the top level by the `unknownFields` drift. */
export const unknownTopLevelField = 'sandbox_unknown_field';
/** Added to every user object by the `unknownFields` drift. */
export const unknownUserField = 'sandbox_unknown_user_field';

const optionalTimestamps = ['created_at', 'expires_at', 'ended_at', 'redeemed_at'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A user object of §8.8 (or §8.10's shorter one): it has a `username` key. */
const isUserObject = (value: Json | undefined): value is JsonObject => isObject(value) && 'username' in value;

function mapDeep(value: Json, visit: (object: JsonObject) => JsonObject): Json {
  if (Array.isArray(value)) return value.map((item) => mapDeep(item, visit));
  if (!isObject(value)) return value;
  const mapped: JsonObject = {};
  for (const [key, item] of Object.entries(value)) mapped[key] = mapDeep(item, visit);
  return visit(mapped);
}

function nullObjects(payload: JsonObject): JsonObject {
  const result: JsonObject = { ...payload };
  if (isObject(result.metadata) && 'category' in result.metadata) {
    result.metadata = { ...result.metadata, category: null };
  }
  if ('emotes' in result) result.emotes = null;
  // chat.message.sent only: "absent or null — handle both"
  if ('message_id' in result && 'sender' in result) result.replies_to = null;
  const sender = result.sender;
  if (isUserObject(sender) && isObject(sender.identity)) {
    result.sender = { ...sender, identity: { ...sender.identity, badges: null } };
  }
  return result;
}

function nullIdentity(payload: JsonObject): JsonObject {
  const sender = payload.sender;
  if (!isUserObject(sender) || !('identity' in sender)) return payload;
  return { ...payload, sender: { ...sender, identity: null } };
}

function unknownFields(payload: JsonObject): JsonObject {
  const withUsers = mapDeep(payload, (object) =>
    isUserObject(object) ? { ...object, [unknownUserField]: 'drift' } : object,
  ) as JsonObject;
  const result: JsonObject = { ...withUsers, [unknownTopLevelField]: { added_by: 'kick-sandbox', version: 2 } };
  // the live service has sent the category twice, as `category` and `Category` (kick-api.md §8.9)
  if (isObject(result.metadata) && 'category' in result.metadata) {
    result.metadata = { ...result.metadata, Category: result.metadata.category ?? null };
  }
  return result;
}

function missingOptional(payload: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(payload).filter(([key]) => !optionalTimestamps.includes(key)));
}

function idsAsStrings(payload: JsonObject): JsonObject {
  return mapDeep(payload, (object) => {
    const result: JsonObject = { ...object };
    for (const key of ['user_id', 'id']) {
      const value = result[key];
      if (typeof value === 'number') result[key] = String(value);
    }
    return result;
  }) as JsonObject;
}

const bodyDrifts: Partial<Record<DriftName, (payload: JsonObject) => JsonObject>> = {
  nullObjects,
  nullIdentity,
  unknownFields,
  missingOptional,
  idsAsStrings,
};

/** Applies the body drifts among `drifts` in a fixed order; a payload that is not an object stays as it is. */
export function driftPayload(payload: unknown, drifts: readonly DriftName[]): unknown {
  const copy = JSON.parse(JSON.stringify(payload ?? null)) as Json;
  if (!isObject(copy)) return copy;
  let result: JsonObject = copy;
  for (const name of ['nullObjects', 'nullIdentity', 'unknownFields', 'missingOptional', 'idsAsStrings'] as const) {
    const drift = bodyDrifts[name];
    if (drift && drifts.includes(name)) result = drift(result);
  }
  return result;
}

/** The body of the `unknownEvent` drift's extra delivery: the channel, and something new. */
export function unknownEventPayload(payload: unknown, createdAt: string): unknown {
  const broadcaster = isObject(payload as Json) ? (payload as JsonObject).broadcaster : undefined;
  return {
    broadcaster: broadcaster ?? null,
    sandbox_note: 'an event type Kick has not documented',
    created_at: createdAt,
  };
}
