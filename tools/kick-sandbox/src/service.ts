import { Router } from 'express';
import { systemClock, type Clock } from '@kickstand/platform/clock';
import { createHttpApp } from '@kickstand/platform/http';
import type { Service } from '@kickstand/platform/lifecycle';
import type { Logger } from '@kickstand/platform/log';
import type { Store } from '@kickstand/platform/store';
import { recordCalls } from './api/call-recorder';
import { createLeanChatRoute } from './api/lean-chat';
import { kickApiRoutes } from './api/routes';
import { createApp } from './app-settings';
import { createBans } from './bans';
import { createChannels } from './channels';
import { createChat } from './chat';
import { controlRoutes } from './control/routes';
import { createEventSubscriptions } from './event-subscriptions';
import { createImageUrls } from './images';
import { createKickUsers } from './kick-users';
import { createNotifier } from './notifier';
import { createAuthorizations } from './oauth/authorize';
import { oauthRoutes } from './oauth/routes';
import { createTokens } from './oauth/tokens';
import { resolveOptions, type KickSandboxOptions } from './options';
import { pagesRoutes } from './pages/routes';
import { createPayloadParts } from './payloads';
import { createRealKick } from './real-kick';
import { createRepository } from './repository';
import { seedOnFirstStart } from './seed';
import { createViewerEvents } from './viewer-events';
import { createDeliverer } from './webhooks/deliverer';
import { createEmitter } from './webhooks/emitter';
import { createFaults } from './webhooks/faults';
import { createSigner } from './webhooks/signer';

export type {
  KickSandboxApp,
  KickSandboxDeliveryOptions,
  KickSandboxOptions,
  KickSandboxTokenLifetimes,
} from './options';
export type { FaultSettings } from './webhooks/faults';
export {
  documentedKick,
  realKickPreset,
  realKickSettingsSchema,
  type RealKickSettings,
  type RealKickSettingsPatch,
} from './real-kick';
export { unknownDriftEventType, unknownTopLevelField, unknownUserField } from './webhooks/drift';
export { seedUserIds } from './seed';
export {
  kickSandboxConfigSchema,
  kickSandboxSettingsSchema,
  kickSandboxOptionsFromSettings,
  type KickSandboxConfig,
  type KickSandboxSettings,
} from './config';

export interface KickSandboxDeps {
  log: Logger;
  /** Everything the sandbox knows lives here, so a restart keeps linked accounts working. */
  store: Store;
  /** Token expiry, timestamps and ids follow it; the system clock by default. */
  clock?: Clock;
}

/**
 * The local stand-in for Kick's public API (kick-api.md §11): the identity host's OAuth endpoints
 * and authorize page, the REST API under /public/v1, signed webhook deliveries to the app's
 * webhook URL, a control API under /sandbox/api and a chat page at /sandbox — all on one server.
 */
export function createKickSandbox(deps: KickSandboxDeps, options: KickSandboxOptions): Service {
  const { log, store } = deps;
  const clock = deps.clock ?? systemClock;
  const resolved = resolveOptions(options);
  const repo = createRepository(store, { records: resolved.recordsKept, chatLines: resolved.chatLinesKept });
  const notifier = createNotifier();
  const images = createImageUrls(resolved.publicUrl);
  const parts = createPayloadParts(images);
  const app = createApp({ options: resolved, repo, clock });
  const users = createKickUsers({ repo, clock });
  const signer = createSigner({ repo, clock, configuredKeyPem: resolved.signingKeyPem });
  const faults = createFaults(resolved.faults);
  const realKick = createRealKick(resolved.realKick);
  const deliverer = createDeliverer({ repo, app, signer, faults, clock, log, notifier, delivery: resolved.delivery });
  const emitter = createEmitter({ repo, deliverer, faults, realKick, clock, notifier, log });
  const tokens = createTokens({ repo, clock, lifetimes: resolved.tokens });
  const authorizations = createAuthorizations({ repo, app, users, tokens, clock });
  const subscriptions = createEventSubscriptions({ repo, app, clock });
  const channels = createChannels({ users, emitter, parts, clock });
  const bans = createBans({ repo, users, emitter, parts, clock, notifier });
  const chat = createChat({
    repo,
    users,
    bans,
    app,
    emitter,
    parts,
    clock,
    notifier,
    realKick,
    acceptsUnknownReplyTargets: resolved.acceptsUnknownReplyTargets,
  });
  const viewerEvents = createViewerEvents({ users, chat, bans, emitter, parts, clock });
  const record = (endpointOf: Parameters<typeof recordCalls>[1]) =>
    recordCalls({ repo, clock, log, notifier }, endpointOf);

  const routes: Router[] = [
    oauthRoutes({ app, users, authorizations, tokens, log, record }),
    kickApiRoutes({ users, channels, chat, bans, subscriptions, tokens, signer, images, log, record }),
    controlRoutes({
      repo,
      users,
      channels,
      chat,
      bans,
      viewerEvents,
      subscriptions,
      tokens,
      faults,
      realKick,
      app,
      signer,
      images,
      clock,
      notifier,
    }),
    pagesRoutes({ app, users, realKick, publicUrl: resolved.publicUrl }),
  ];

  // bodies are parsed per door, so each answers a bad body in its own shape (Kick's, OAuth's, ours)
  const httpApp = createHttpApp({
    service: 'kick-sandbox',
    log,
    routes,
    readiness: [{ name: 'store', check: () => store.ping() }],
    parseJson: false,
    // the product's replies arrive at the rate of chat: a request line each cost more than the reply
    // (pino-http ~70 µs); every call stays in GET /sandbox/api/calls, and failures are still logged
    quietPaths: ['/public/v1/chat'],
  });

  return {
    app: httpApp,
    // the product's replies, one per bot line: answered without Express's stack, as Express would
    handleFirst: createLeanChatRoute({
      tokens,
      chat,
      repo,
      clock,
      log,
      notifier,
      viaExpress: (req, res) => httpApp(req, res),
    }),
    async start() {
      await repo.init();
      await app.init();
      await signer.init();
      if (resolved.isSeeded) await seedOnFirstStart(users);
      await users.ensure(app.botUsername);
    },
    async stop() {
      notifier.close();
      await deliverer.stop();
    },
  };
}
