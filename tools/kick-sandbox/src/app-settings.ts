import { z } from 'zod';
import type { Clock } from '@kickstand/platform/clock';
import { createUlidFactory } from './ids';
import type { ResolvedOptions } from './options';
import type { Repository } from './repository';

export const appSettingsPatchSchema = z.strictObject({
  webhookUrl: z.url({ protocol: /^https?$/ }).optional(),
  isWebhookEnabled: z.boolean().optional(),
  isBotEnabled: z.boolean().optional(),
  subscriptionLimit: z.number().int().min(0).optional(),
  chatDailyQuota: z.number().int().min(0).nullable().optional(),
});

export type AppSettingsPatch = z.infer<typeof appSettingsPatchSchema>;

/** What the control API may change at runtime; the rest of the app registration is fixed by the options. */
export interface AppSettings {
  webhookUrl: string;
  isWebhookEnabled: boolean;
  isBotEnabled: boolean;
  subscriptionLimit: number;
  chatDailyQuota: number | null;
}

export interface App {
  /** Kick's app id (a ULID, `app_id` in subscription listings): made at first start and kept. */
  appId(): string;
  clientId: string;
  clientSecret: string;
  name: string;
  redirectUris: readonly string[];
  botUsername: string;
  settings(): AppSettings;
  patch(changes: AppSettingsPatch): AppSettings;
  init(): Promise<void>;
}

export function createApp({ options, repo, clock }: { options: ResolvedOptions; repo: Repository; clock: Clock }): App {
  let appId: string | undefined;
  let settings: AppSettings = {
    webhookUrl: options.app.webhookUrl,
    isWebhookEnabled: options.app.isWebhookEnabled,
    isBotEnabled: options.app.isBotEnabled,
    subscriptionLimit: options.subscriptionLimit,
    chatDailyQuota: options.chatDailyQuota,
  };
  return {
    appId() {
      if (!appId) throw new Error('the app is not loaded: start the sandbox first');
      return appId;
    },
    clientId: options.app.clientId,
    clientSecret: options.app.clientSecret,
    name: options.app.name,
    redirectUris: options.app.redirectUris,
    botUsername: options.app.botUsername,
    settings: () => settings,
    patch(changes) {
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      settings = { ...settings, ...defined };
      return settings;
    },
    async init() {
      const docId = `app:${options.app.clientId}`;
      const saved = await repo.meta.findOne({ _id: docId });
      if (saved?.value.appId) {
        appId = saved.value.appId;
        return;
      }
      appId = createUlidFactory()(clock.now().getTime());
      await repo.meta.updateOne({ _id: docId }, { $set: { value: { appId } } }, { upsert: true });
    },
  };
}
