import {
  eventMessageDefaults,
  eventMessageKinds,
  eventMessageVariables,
  type EventMessage,
  type EventMessageKind,
  type EventMessagesBody,
} from '@kickstand/api-contract';
import type { Document, Store } from '@kickstand/platform/store';
import type { ThanksSetting } from './event-thanks';

/**
 * The streamer's event messages (`event-messages`, `_id` = user id): per kind, on or off and the
 * template. A kind never saved is its default (eventMessageDefaults in the contract).
 */
export interface EventSettingsDoc extends Document {
  messages?: Partial<Record<EventMessageKind, ThanksSetting>>;
  updatedAtMs: number;
}

export type EventSettings = Record<EventMessageKind, ThanksSetting>;

export interface EventSettingsRepository {
  get(userId: string): Promise<EventSettings>;
  /** Replaces the kinds given; the others stay. */
  save(userId: string, body: EventMessagesBody, atMs: number): Promise<EventSettings>;
}

function withDefaults(doc: EventSettingsDoc | null): EventSettings {
  const settings = {} as EventSettings;
  for (const kind of eventMessageKinds) settings[kind] = doc?.messages?.[kind] ?? { ...eventMessageDefaults[kind] };
  return settings;
}

export function createEventSettingsRepository(store: Store): EventSettingsRepository {
  const docs = store.collection<EventSettingsDoc>('event-messages');
  return {
    get: async (userId) => withDefaults(await docs.findOne({ _id: userId })),
    save: async (userId, body, atMs) => {
      const set: Record<string, unknown> = { updatedAtMs: atMs };
      for (const kind of eventMessageKinds) {
        const setting = body[kind];
        if (setting) set[`messages.${kind}`] = { enabled: setting.enabled, template: setting.template };
      }
      // dot paths: a first save creates `messages` with the kinds given
      await docs.updateOne({ _id: userId }, { $set: set }, { upsert: true });
      return withDefaults(await docs.findOne({ _id: userId }));
    },
  };
}

/** The dashboard's view: every kind in order, with its variables and default. */
export function eventMessagesView(settings: EventSettings): EventMessage[] {
  return eventMessageKinds.map((kind) => ({
    kind,
    enabled: settings[kind].enabled,
    template: settings[kind].template,
    variables: [...eventMessageVariables[kind]],
    defaultTemplate: eventMessageDefaults[kind].template,
  }));
}
