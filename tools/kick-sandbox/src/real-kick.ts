import { seededRandom } from '@kickstand/platform/random';
import { z } from 'zod';

const rate = z.number().min(0).max(1);
const count = z.number().int().min(0).max(1_000_000);

/**
 * Real Kick's own behaviour where it differs from its documentation (kick-api.md §5.1, §7, §8.10,
 * §11 item 13). Everything is off by default: the sandbox then follows kick-api.md to the letter.
 * Rates are probabilities per call or delivery (0 = never, 1 = always, exactly), drawn from a
 * seeded generator so a test run repeats itself; counters ("the next N calls") count down.
 */
export const realKickSettingsSchema = z.strictObject({
  /**
   * `POST /chat` with `type: "bot"`: `off` = works as documented; `server-error` = 500 (KickDevDocs
   * #343); `channel-not-found` = 400 "Channel not found" (the app's bot option switched off).
   */
  botChat: z.enum(['off', 'server-error', 'channel-not-found']),
  /** The next N `POST /chat` calls answer 429. */
  chatRateLimitNext: count,
  /** Each `POST /chat` call answers 429 with this probability. */
  chatRateLimitRate: rate,
  /** The next N `POST /chat` calls answer 200 with `is_sent: false` and post nothing. */
  chatNotSentNext: count,
  /** Each `POST /chat` call answers `is_sent: false` with this probability. */
  chatNotSentRate: rate,
  /**
   * `reply_to_message_id`: `documented` = must name a message of that chat (400 "Message not
   * found" otherwise); `refused` = every reply is 400 "Reply target not found", even to a real message.
   */
  replyTargets: z.enum(['documented', 'refused']),
  /** Per delivery: `metadata.category`, `emotes`, `replies_to` and the sender's `identity.badges` arrive null. */
  driftNullObjects: rate,
  /** Per delivery: the chat sender's `identity` arrives null. */
  driftNullIdentity: rate,
  /** Per delivery: unknown fields are added (top level, user objects, `metadata.Category`). */
  driftUnknownFields: rate,
  /** Per delivery: optional fields are missing (`created_at`, `expires_at`, `ended_at`, `redeemed_at`). */
  driftMissingOptional: rate,
  /** Per delivery: every numeric `user_id` and `id` arrives as a string. */
  driftIdsAsStrings: rate,
  /** Per delivery: an extra delivery of an unknown event type follows it. */
  driftUnknownEvents: rate,
  /** Per delivery: an extra delivery of the same event with `Kick-Event-Version: 2` follows it. */
  driftUnknownVersions: rate,
  /** A subscription is silently deleted once it has produced this many deliveries; null = never. */
  dropSubscriptionsAfterDeliveries: z.number().int().min(1).nullable(),
  /** Seed of the generator behind the rates; setting it restarts the sequence. */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1),
});

export type RealKickSettings = z.infer<typeof realKickSettingsSchema>;

export const realKickSettingsPatchSchema = realKickSettingsSchema.partial();

export type RealKickSettingsPatch = z.infer<typeof realKickSettingsPatchSchema>;

/** kick-api.md to the letter. */
export const documentedKick: RealKickSettings = {
  botChat: 'off',
  chatRateLimitNext: 0,
  chatRateLimitRate: 0,
  chatNotSentNext: 0,
  chatNotSentRate: 0,
  replyTargets: 'documented',
  driftNullObjects: 0,
  driftNullIdentity: 0,
  driftUnknownFields: 0,
  driftMissingOptional: 0,
  driftIdsAsStrings: 0,
  driftUnknownEvents: 0,
  driftUnknownVersions: 0,
  dropSubscriptionsAfterDeliveries: null,
  seed: 1,
};

/**
 * "Real Kick" as developers meet it: `type: "bot"` refused with 500, and deliveries whose shapes
 * drift now and then. The rarer troubles (429, is_sent false, dropped subscriptions, refused
 * replies) stay off; switch them on one by one.
 */
export const realKickPreset: RealKickSettingsPatch = {
  botChat: 'server-error',
  driftNullObjects: 0.3,
  driftNullIdentity: 0.1,
  driftUnknownFields: 0.5,
  driftMissingOptional: 0.2,
  driftIdsAsStrings: 0.1,
  driftUnknownEvents: 0.1,
  driftUnknownVersions: 0.05,
};

export type DriftName =
  | 'nullObjects'
  | 'nullIdentity'
  | 'unknownFields'
  | 'missingOptional'
  | 'idsAsStrings'
  | 'unknownEvent'
  | 'unknownVersion';

const driftRates: [DriftName, keyof RealKickSettings][] = [
  ['nullObjects', 'driftNullObjects'],
  ['nullIdentity', 'driftNullIdentity'],
  ['unknownFields', 'driftUnknownFields'],
  ['missingOptional', 'driftMissingOptional'],
  ['idsAsStrings', 'driftIdsAsStrings'],
  ['unknownEvent', 'driftUnknownEvents'],
  ['unknownVersion', 'driftUnknownVersions'],
];

/** What happens to one `POST /chat` before the sandbox's documented rules run. */
export type ChatCallOutcome = 'rate-limited' | 'not-sent' | 'normal';

export interface RealKick {
  get(): RealKickSettings;
  patch(changes: RealKickSettingsPatch): RealKickSettings;
  /** Back to the documented behaviour. */
  reset(): RealKickSettings;
  /** Draws (and counts down) what happens to the next `POST /chat`. */
  nextChatCall(): ChatCallOutcome;
  /** Which drifts hit one delivery. */
  drawDrift(): DriftName[];
}

/** Kept in memory, like the delivery faults: a restart brings back what the options said. */
export function createRealKick(initial: RealKickSettingsPatch = {}): RealKick {
  let settings = realKickSettingsSchema.parse({ ...documentedKick, ...definedOnly(initial) });
  let random = seededRandom(settings.seed);
  // `random() < 1` always holds and `random() < 0` never does, so 0 and 1 are exact
  const hits = (probability: number) => random() < probability;

  return {
    get: () => settings,
    patch(changes) {
      settings = realKickSettingsSchema.parse({ ...settings, ...definedOnly(changes) });
      if (changes.seed !== undefined) random = seededRandom(settings.seed);
      return settings;
    },
    reset() {
      settings = { ...documentedKick };
      random = seededRandom(settings.seed);
      return settings;
    },
    nextChatCall() {
      if (settings.chatRateLimitNext > 0) {
        settings = { ...settings, chatRateLimitNext: settings.chatRateLimitNext - 1 };
        return 'rate-limited';
      }
      if (hits(settings.chatRateLimitRate)) return 'rate-limited';
      if (settings.chatNotSentNext > 0) {
        settings = { ...settings, chatNotSentNext: settings.chatNotSentNext - 1 };
        return 'not-sent';
      }
      if (hits(settings.chatNotSentRate)) return 'not-sent';
      return 'normal';
    },
    drawDrift() {
      return driftRates.filter(([, key]) => hits(settings[key] as number)).map(([name]) => name);
    },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
