import { z } from 'zod';

const rate = z.number().min(0).max(1);

/**
 * Delivery faults (kick-api.md §11 item 13). Rates are probabilities per delivery: 0 = never,
 * 1 = every time, so tests stay deterministic. Duplicate subscriptions need no switch: subscribing
 * twice gives two deliveries with different message ids, as on Kick.
 */
export const faultSettingsSchema = z.strictObject({
  /** The same request (same message id, timestamp and signature) is sent twice. */
  duplicate: rate,
  /** The delivery is recorded as dropped and never sent. */
  drop: rate,
  /** The delivery waits and is sent after the next delivery of its channel. */
  outOfOrder: rate,
  /** Kick-Event-Message-Timestamp lies in the past (correctly signed). */
  staleTimestamp: rate,
  /** Kick-Event-Signature does not verify. */
  badSignature: rate,
  /** Attempts per delivery while the webhook answers non-2xx or is unreachable: 1 = no retry, up to 3. */
  maxAttempts: z.number().int().min(1).max(3),
  /** Failed deliveries in a row after which the subscription is deleted; null = never. */
  autoUnsubscribeAfterFailures: z.number().int().min(1).nullable(),
  /** Limits the rate faults above to these event types; null = every type. */
  onlyEventTypes: z.array(z.string().min(1)).nullable(),
});

export type FaultSettings = z.infer<typeof faultSettingsSchema>;

export const faultSettingsPatchSchema = faultSettingsSchema.partial();

export const noFaults: FaultSettings = {
  duplicate: 0,
  drop: 0,
  outOfOrder: 0,
  staleTimestamp: 0,
  badSignature: 0,
  maxAttempts: 1,
  autoUnsubscribeAfterFailures: null,
  onlyEventTypes: null,
};

export type FaultName = 'duplicate' | 'drop' | 'outOfOrder' | 'staleTimestamp' | 'badSignature';

const rateFaults: readonly FaultName[] = ['duplicate', 'drop', 'outOfOrder', 'staleTimestamp', 'badSignature'];

export interface Faults {
  get(): FaultSettings;
  patch(changes: Partial<FaultSettings>): FaultSettings;
  reset(): FaultSettings;
  /** Which rate faults hit one delivery of this event type. */
  draw(eventType: string): FaultName[];
}

/** Kept in memory on purpose: a restart brings back the faults the sandbox was configured with. */
export function createFaults(initial: Partial<FaultSettings>, random: () => number = Math.random): Faults {
  const start = faultSettingsSchema.parse({ ...noFaults, ...initial });
  let settings = start;
  return {
    get: () => settings,
    patch(changes) {
      settings = faultSettingsSchema.parse({ ...settings, ...changes });
      return settings;
    },
    reset() {
      settings = { ...noFaults };
      return settings;
    },
    draw(eventType) {
      if (settings.onlyEventTypes && !settings.onlyEventTypes.includes(eventType)) return [];
      // `random() < 1` always holds and `random() < 0` never does, so 0 and 1 are exact
      return rateFaults.filter((name) => random() < settings[name]);
    },
  };
}
