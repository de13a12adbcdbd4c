import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type * as ChatSenderModule from '@kickstand/kick-link/chat-sender';
import type * as KickClientModule from '@kickstand/kick-link/kick-client';
import type * as KickTokensModule from '@kickstand/kick-link/kick-tokens';
import type * as RepositoryModule from '@kickstand/kick-link/repository';
import type * as TokenCryptoModule from '@kickstand/kick-link/token-crypto';
import type * as ClockModule from '@kickstand/platform/clock';
import type * as LogModule from '@kickstand/platform/log';
import type * as StoreModule from '@kickstand/platform/store';
import type * as ProtoModule from '@kickstand/proto';

/**
 * kick-client's tuning in both paths of `npm run bench:kick-client`, spelled out rather than taken
 * from the build under test, so that two builds compared run with the same (kick-link's defaults
 * at c574b60).
 */
export const benchKickTuning = {
  timeoutMs: 5000,
  maxAttempts: 3,
  initialBackoffMs: 250,
  maxBackoffMs: 5000,
  maxRetryAfterMs: 10_000,
  maxConnections: 32,
};

/**
 * kick-link's whole reply path as the owner thread runs it, for `--path reply` of the
 * kick-client bench: chat-sender's claim (embedded store), its channel queue, the link read, the
 * sender state, the user's token (kick-tokens, AES-GCM at rest), POST /chat (kick-client), the
 * sent message id and the outcome (store writes). Every module, the platform's store included,
 * comes from the build of `kickClientPath`, so another checkout's build gives the "before".
 * Left out: the bus (chat.sent is handed to a publisher that does nothing) and the delivery health.
 */
export interface ReplyPath {
  /** Posts `count` replies, `concurrency` channels at a time, and waits for all of them. */
  reply(count: number): Promise<void>;
  close(): Promise<void>;
}

/* eslint-disable @typescript-eslint/no-require-imports -- modules of a build chosen at run time */
export async function createReplyPath(options: {
  kickClientPath: string;
  origin: string;
  channels: number;
  concurrency: number;
}): Promise<ReplyPath> {
  const { channels, concurrency } = options;
  const dist = path.dirname(options.kickClientPath);
  const fromBuild = (request: string) => require.resolve(request, { paths: [dist] });
  const { createChatSender, createOwnLines } = require(path.join(dist, 'chat-sender.js')) as typeof ChatSenderModule;
  const { createKickClient } = require(options.kickClientPath) as typeof KickClientModule;
  const { createUserTokens, sealTokens } = require(path.join(dist, 'kick-tokens.js')) as typeof KickTokensModule;
  const { createKickLinkRepository } = require(path.join(dist, 'repository.js')) as typeof RepositoryModule;
  const { createTokenCipher } = require(path.join(dist, 'token-crypto.js')) as typeof TokenCryptoModule;
  const { createEmbeddedStore } = require(fromBuild('@kickstand/platform/store')) as typeof StoreModule;
  const { createSilentLogger } = require(fromBuild('@kickstand/platform/log')) as typeof LogModule;
  const { systemClock: clock } = require(fromBuild('@kickstand/platform/clock')) as typeof ClockModule;
  const { ChatOrigin, timestampFromDate } = require(fromBuild('@kickstand/proto')) as typeof ProtoModule;

  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-reply-bench-'));
  const store = await createEmbeddedStore({ dir });
  const repo = createKickLinkRepository(store, { oauthStateSeconds: 600 });
  await repo.createIndexes();
  const cipher = createTokenCipher(randomBytes(32));
  const now = clock.now();
  for (let index = 0; index < channels; index += 1) {
    const userId = `u-${index}`;
    const tokens = {
      accessToken: `access-${randomUUID()}`,
      refreshToken: `refresh-${randomUUID()}`,
      expiresInSeconds: 86_400,
      scopes: ['chat:write', 'user:read'],
    };
    await repo.links.save(userId, {
      kickUserId: String(100_000 + index),
      kickUsername: `streamer_${index}`,
      kickEmail: '',
      profilePicture: '',
      linkedAt: now,
      ...sealTokens(cipher, userId, tokens, now),
    });
  }
  const log = createSilentLogger();
  const kick = createKickClient({
    connection: {
      clientId: 'bench',
      clientSecret: 'bench',
      redirectUri: 'http://localhost/cb',
      oauthUrl: options.origin,
      apiUrl: `${options.origin}/public/v1`,
    },
    tuning: benchKickTuning,
  });
  const tokenDeps = { repo, kick, cipher: () => cipher, clock, log, refreshAheadSeconds: 300 };
  const userTokens = createUserTokens({ ...tokenDeps, onNeedsRelink: async () => undefined });
  const botAccounts = { current: async () => null, knownKickUserId: async () => null, changed: () => undefined };
  let failed = 0;
  const sender = createChatSender({
    repo,
    kick,
    userTokens,
    botTokens: userTokens,
    botAccounts,
    ownLines: createOwnLines({ repo, clock, botAccounts, botUsername: undefined }),
    publisher: {
      chatSent: async (outcome: { isSent: boolean }) => {
        if (!outcome.isSent) failed += 1;
      },
    } as unknown as Parameters<typeof createChatSender>[0]['publisher'],
    health: {
      deliveryAccepted: () => undefined,
      deliveryRefused: () => undefined,
      deadLettered: () => undefined,
      reply: () => undefined,
      kickError: () => undefined,
      subscriptionsChecked: () => undefined,
    },
    clock,
    log,
    mode: 'auto',
  });

  let sent = 0;
  return {
    async reply(count) {
      for (let start = 0; start < count; start += concurrency) {
        const batch = Math.min(concurrency, count - start);
        // `concurrency` channels side by side, each reply a command's answer in its channel
        await Promise.all(
          Array.from({ length: batch }, () => {
            const index = sent++;
            return sender.handle({
              eventId: randomUUID(),
              idempotencyKey: `reply:${randomUUID()}`,
              broadcasterUserId: String(100_000 + (index % channels)),
              ownerUserId: `u-${index % channels}`,
              content: `@viewer${index % 1000} the current song is "Something" (${index})`,
              replyToMessageId: randomUUID(),
              replyToUsername: `viewer${index % 1000}`,
              origin: ChatOrigin.COMMAND,
              sourceReceivedAt: timestampFromDate(clock.now()),
              occurredAt: timestampFromDate(clock.now()),
            } as Parameters<typeof sender.handle>[0]);
          }),
        );
        await sender.drain();
        if (failed > 0) throw new Error(`${failed} replies were not posted`);
      }
    },
    async close() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
