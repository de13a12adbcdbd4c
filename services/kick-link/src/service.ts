import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import express from 'express';
import {
  createSpool,
  createSpooledPublisher,
  kickstandTopics,
  type KickstandTopics,
  type SpooledPublisher,
  type Subscription,
} from '@kickstand/platform/bus';
import { createHttpApp } from '@kickstand/platform/http';
import { platformReadiness, type PlatformDeps, type Service } from '@kickstand/platform/lifecycle';
import { processMetrics } from '@kickstand/platform/metrics';
import { adminWebhookRoutes } from './admin-routes';
import { createBotAccountDirectory } from './bot-account';
import { botAccountRoutes } from './bot-account-routes';
import { createChatSender, createOwnLines } from './chat-sender';
import { deadLetterRoutes } from './dead-letter-routes';
import { combineDeliveryHealth, createMetricsDeliveryHealth } from './delivery-health';
import { createStoredDeliveryHealth } from './delivery-health-store';
import { kickLinkConsumerGroup, onBotControl, onChatSend, onUserChanged, subscribeKickLinkEvents } from './events';
import { createModerationClaimIndexes, onModerationAction } from './moderation-actions';
import { createLinkOutbox } from './link-outbox';
import { createKickLinkPublisher } from './publisher';
import { createKickClient } from './kick-client';
import { createAppTokens, createUserTokens } from './kick-tokens';
import { createChannelOwners, createLinks } from './links';
import { browserCookieSettings } from './oauth-browser';
import { resolveOptions, type KickLinkOptions } from './options';
import { createKickLinkRepository } from './repository';
import { deliveryHealthRoutes } from './health-routes';
import { createReconciler } from './reconciler';
import { kickLinkRoutes } from './routes';
import { createRunningBots } from './running-bots';
import { createChannelSubscriptions } from './subscriptions';
import { createTokenCipher, type TokenCipher } from './token-crypto';
import { loadTokenKey } from './token-key';
import { createDeliveryProcessor } from './webhook-delivery';
import { createWebhookIntake, type KickLinkIntake } from './webhook-intake';
import { kickWebhookRoutes } from './webhook-routes';
import { createWebhookVerifier } from './webhook-verification';

export {
  kickLinkConfigSchema,
  kickLinkOptionsFromSettings,
  kickLinkSettingsSchema,
  oauthCallbackPath,
  redirectUriOn,
  type KickLinkConfig,
  type KickLinkSettings,
} from './config';
export type { ChatSenderMode, KickConnection, KickHttpTuning, KickLinkOptions } from './options';
export { subscribableEvents, type SubscribableEvent } from './subscriptions';
export type { IntakeAnswer, KickLinkIntake, WebhookIntake } from './webhook-intake';
export type { VerifiedDelivery } from './webhook-delivery';

/**
 * What a webhook door in another thread needs from kick-link (single-machine mode's front door):
 * the intake of checked deliveries, Kick's public key, and the settings of the checks.
 */
export interface WebhookDoorHandOff {
  intake: KickLinkIntake;
  /** Kick's webhook public key, fetched by kick-link's Kick client (never with a token). */
  publicKey(): Promise<string>;
  toleranceSeconds: number;
  refetchIntervalMs: number;
  fallbackPem: string | undefined;
}

export interface KickLinkService extends Service {
  webhookDoor: WebhookDoorHandOff;
}

/**
 * Kick OAuth link, encrypted Kick tokens, webhook ingress, webhook subscriptions, sending chat to
 * Kick. Listens to bot.control, chat.send, moderation.action and user.changed (group kick-link); publishes
 * kick.account, chat.subscription, chat.received, kick.event, chat.sent, moderation.result and audit.recorded.
 */
export function createKickLinkService(deps: PlatformDeps, options: KickLinkOptions): KickLinkService {
  const { bus, clock, log, store } = deps;
  const resolved = resolveOptions(options);
  const repo = createKickLinkRepository(store, { oauthStateSeconds: resolved.oauthStateSeconds });
  const kick = createKickClient({ connection: resolved.kick, tuning: resolved.http });
  let tokenCipher: TokenCipher | undefined;
  const cipher = (): TokenCipher => {
    if (!tokenCipher) throw new Error('kick-link is not started: the token key is not loaded');
    return tokenCipher;
  };

  const publisher = createKickLinkPublisher(bus, clock);
  const linkOutbox = createLinkOutbox({ repo, publisher, log });
  const appTokens = createAppTokens({ kick, clock });
  const subscriptions = createChannelSubscriptions({ kick, appTokens });
  const owners = createChannelOwners({ repo, clock });
  const timing = options.deliveryHealth ?? {};
  const storedHealth = createStoredDeliveryHealth({ store, clock, log, flushIntervalMs: timing.flushIntervalMs });
  const health = combineDeliveryHealth(createMetricsDeliveryHealth(deps.service, processMetrics()), storedHealth);
  const runningBots = createRunningBots(store);
  const reconciler = createReconciler({
    repo,
    runningBots,
    subscriptions,
    kick,
    appTokens,
    health,
    stored: storedHealth,
    clock,
    log,
    instanceId: timing.instanceId ?? `${hostname()}-${randomUUID().slice(0, 8)}`,
    timing: {
      intervalMs: timing.reconcileIntervalMs,
      tickMs: timing.reconcileTickMs,
      afterStartMs: timing.reconcileAfterStartMs,
    },
  });
  const userTokens = createUserTokens({
    repo,
    kick,
    cipher,
    clock,
    log,
    refreshAheadSeconds: resolved.refreshAheadSeconds,
    // kick.account NEEDS_RELINK and chat.subscription FAILED were written with the status
    onNeedsRelink: async (link) => void (await linkOutbox.publishFrom(link)),
  });
  const botAccounts = createBotAccountDirectory({ repo, clock });
  const botTokens = createUserTokens({
    repo,
    kick,
    cipher,
    clock,
    log,
    refreshAheadSeconds: resolved.refreshAheadSeconds,
    holders: repo.botAccount,
    // replies fall back to the streamers' own tokens until an admin links the bot account again
    async onNeedsRelink(account) {
      botAccounts.changed();
      log.warn({ kickUsername: account.kickUsername }, 'Kick refused the bot account refresh token: link it again');
    },
  });
  const links = createLinks({
    repo,
    kick,
    cipher,
    subscriptions,
    owners,
    publisher,
    outbox: linkOutbox,
    clock,
    log,
    oauthStateSeconds: resolved.oauthStateSeconds,
    botAccounts,
  });
  const ownLines = createOwnLines({ repo, clock, botAccounts, botUsername: resolved.botUsername });
  const chat = createChatSender({
    repo,
    kick,
    userTokens,
    botTokens,
    botAccounts,
    ownLines,
    publisher,
    health,
    clock,
    log,
    mode: resolved.chatSender,
  });
  const verifier = createWebhookVerifier({
    kick,
    clock,
    log,
    toleranceSeconds: resolved.webhookToleranceSeconds,
    refetchIntervalMs: resolved.publicKeyRefetchIntervalMs,
    fallbackPem: resolved.publicKeyFallbackPem,
  });

  // The door publishes durably: to the bus, or to the spool while the bus cannot take it (options.ts).
  const doorSpool = spooledPublisherOf(deps, options);
  const doorPublisher = doorSpool ? createKickLinkPublisher(doorSpool.bus, clock) : publisher;
  const processor = createDeliveryProcessor({ owners, ownLines, repo, publisher: doorPublisher, log });
  const intake = createWebhookIntake({ processor, repo, health, log });
  const browserCookie = browserCookieSettings(resolved.kick.redirectUri, resolved.oauthStateSeconds);

  const platformApp = createHttpApp({
    service: deps.service,
    log,
    http: deps.http,
    routes: [
      kickLinkRoutes({ links, tokens: deps.tokens, log, browserCookie }),
      adminWebhookRoutes({ repo, subscriptions, publisher, runningBots, tokens: deps.tokens, clock, log }),
      deliveryHealthRoutes({ store, repo, runningBots, tokens: deps.tokens, clock, stored: storedHealth }),
      botAccountRoutes({ links, chat, repo, tokens: deps.tokens, log, browserCookie }),
      deadLetterRoutes({ repo, processor, tokens: deps.tokens, clock, log }),
    ],
    // with a spool, the door stays ready through a Kafka outage while the spool has room
    readiness: platformReadiness({ store, bus: doorSpool?.bus ?? bus }),
  });
  // The webhook door goes first, with its own raw-body parser (see webhook-routes.ts).
  const app = express();
  app.disable('x-powered-by');
  app.use(
    kickWebhookRoutes({
      verifier,
      intake,
      clock,
      log,
      bodyLimit: deps.http.bodyLimit,
    }),
  );
  app.use(platformApp);

  let started: Subscription[] = [];
  let spoolGauge: NodeJS.Timeout | undefined;
  return {
    app,
    webhookDoor: {
      intake,
      publicKey: () => kick.publicKey(),
      toleranceSeconds: resolved.webhookToleranceSeconds,
      refetchIntervalMs: resolved.publicKeyRefetchIntervalMs,
      fallbackPem: resolved.publicKeyFallbackPem,
    },
    async start() {
      // first: what an earlier run left in the spool goes out before anything new
      await doorSpool?.start();
      if (doorSpool) {
        const gauge = processMetrics().webhookSpoolBytes;
        spoolGauge = setInterval(() => gauge.set({ service: deps.service }, doorSpool.heldBytes()), 5000);
        spoolGauge.unref();
      }
      await repo.createIndexes();
      tokenCipher = createTokenCipher(
        await loadTokenKey({
          key: resolved.tokenEncryptionKey,
          isProduction: resolved.isProduction,
          keyFile: resolved.tokenKeyFile,
          meta: repo.meta,
          log,
        }),
      );
      await owners.warm();
      await runningBots.createIndexes();
      const botControl = onBotControl({ repo, subscriptions, userTokens, publisher, log });
      started = await subscribeKickLinkEvents(bus, {
        botControl: async (message) => {
          await reconciler.recordBotControl(message);
          await botControl(message);
        },
        chatSend: onChatSend(chat),
        userChanged: onUserChanged({ repo, links, clock }),
      });
      await createModerationClaimIndexes(store);
      started.push(
        await bus.subscribe(
          'moderation.action',
          kickLinkConsumerGroup,
          onModerationAction({ store, kick, userTokens, bus, clock, log }),
        ),
      );
      // kick.account / chat.subscription a crash or a bus outage left in the links' outboxes
      await linkOutbox.start();
      storedHealth.start();
      reconciler.start();
      // replies an earlier run (or another instance) claimed but never posted
      chat.start();
    },
    // only what start() began: in single-machine mode the bus and the store belong to the host
    async stop() {
      const running = started;
      started = [];
      await Promise.all(running.map((subscription) => subscription.stop()));
      linkOutbox.stop();
      await reconciler.stop();
      await chat.stop();
      // replies already claimed are still posted (or dropped when too old), not lost mid-way
      await chat.drain();
      await storedHealth.stop();
      clearInterval(spoolGauge);
      await doorSpool?.stop();
    },
  };
}

function spooledPublisherOf(
  deps: PlatformDeps,
  options: KickLinkOptions,
): SpooledPublisher<KickstandTopics> | undefined {
  const spool = options.webhookSpool;
  if (!spool) return undefined;
  const log = deps.log.child({ component: 'webhook-spool' });
  return createSpooledPublisher({
    bus: deps.bus,
    topics: kickstandTopics,
    spool: createSpool({ dir: spool.dir, maxBytes: spool.maxBytes, disk: spool.disk, log }),
    publishTimeoutMs: spool.publishTimeoutMs,
    retryDelayMs: spool.retryDelayMs,
    log,
  });
}
