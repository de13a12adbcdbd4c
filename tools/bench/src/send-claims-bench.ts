import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type * as ChatSenderModule from '@kickstand/kick-link/chat-sender';
import type * as RepositoryModule from '@kickstand/kick-link/repository';
import type * as ClockModule from '@kickstand/platform/clock';
import type * as LogModule from '@kickstand/platform/log';
import type * as StoreModule from '@kickstand/platform/store';
import type * as ProtoModule from '@kickstand/proto';
import { heapAfterGc } from './heap';

/**
 * kick-link's send claims (issue 22 item 5): N chat.sends through the real chat sender (its claim,
 * channel queue, link read, outcome) on the embedded store, Kick answering at once, chat.sent
 * handed to a publisher that does nothing, the echo check left out (its maps are bounded and the
 * same in every build). Reports what the replies leave on the heap once all are settled (heapUsed
 * after a full GC, minus before, per reply: the send claims, as nothing else is kept per reply
 * here) and the CPU per reply (process.cpuUsage). Every module comes from the build under
 * `--root` (a checkout with `npx tsc -b` run), so another checkout gives the "before".
 * Usage (needs --expose-gc):
 *   node --expose-gc tools/bench/dist/send-claims-bench.js [--replies 100000] [--root /work/main]
 */

/* eslint-disable @typescript-eslint/no-require-imports -- modules of a build chosen at run time */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      replies: { type: 'string', default: '100000' },
      channels: { type: 'string', default: '1000' },
      root: { type: 'string', default: path.resolve(__dirname, '../../..') },
    },
  });
  const count = Number(values.replies);
  const channels = Number(values.channels);
  const dist = path.join(values.root, 'services/kick-link/dist');
  const fromBuild = (request: string) => require.resolve(request, { paths: [dist] });
  const { createChatSender } = require(path.join(dist, 'chat-sender.js')) as typeof ChatSenderModule;
  const { createKickLinkRepository } = require(path.join(dist, 'repository.js')) as typeof RepositoryModule;
  const { createEmbeddedStore } = require(fromBuild('@kickstand/platform/store')) as typeof StoreModule;
  const { createSilentLogger } = require(fromBuild('@kickstand/platform/log')) as typeof LogModule;
  const { systemClock: clock } = require(fromBuild('@kickstand/platform/clock')) as typeof ClockModule;
  const { ChatOrigin, timestampFromDate } = require(fromBuild('@kickstand/proto')) as typeof ProtoModule;

  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-send-claims-bench-'));
  const store = await createEmbeddedStore({ dir });
  const repo = createKickLinkRepository(store, { oauthStateSeconds: 600 });
  await repo.createIndexes();
  const now = clock.now();
  for (let index = 0; index < channels; index += 1) {
    await repo.links.save(`u-${index}`, {
      kickUserId: String(100_000 + index),
      kickUsername: `streamer_${index}`,
      kickEmail: '',
      profilePicture: '',
      linkedAt: now,
      accessToken: 'sealed',
      refreshToken: 'sealed',
      accessExpiresAt: new Date(now.getTime() + 86_400_000),
      scopes: ['chat:write'],
      tokensUpdatedAt: now,
    });
  }
  type Deps = Parameters<typeof createChatSender>[0];
  let posted = 0;
  let failed = 0;
  const tokens = { withUserToken: (_id: string, call: (token: string) => Promise<unknown>) => call('token') };
  const sender = createChatSender({
    repo,
    kick: { sendChat: async () => ({ isSent: true, messageId: `m-${posted++}` }) } as unknown as Deps['kick'],
    userTokens: tokens as unknown as Deps['userTokens'],
    botTokens: tokens as unknown as Deps['botTokens'],
    // a linked bot account speaks: no sent message id is recorded (only the claims differ by build)
    botAccounts: {
      current: async () => ({ kickUserId: '9000001', kickUsername: 'kickstand_bot' }) as never,
      knownKickUserId: async () => '9000001',
      changed: () => undefined,
    },
    ownLines: {
      isOwn: async () => false,
      sending: () => Symbol('send'),
      sent: () => undefined,
      settled: () => undefined,
    },
    publisher: {
      chatSent: async (outcome: { isSent: boolean }) => {
        if (!outcome.isSent) failed += 1;
      },
    } as unknown as Deps['publisher'],
    health: {
      deliveryAccepted: () => undefined,
      deliveryRefused: () => undefined,
      deadLettered: () => undefined,
      reply: () => undefined,
      kickError: () => undefined,
      subscriptionsChecked: () => undefined,
    },
    clock,
    log: createSilentLogger(),
    mode: 'auto',
  });
  const chatSend = (index: number) => {
    const at = timestampFromDate(clock.now());
    return {
      eventId: randomUUID(),
      occurredAt: at,
      idempotencyKey: `reply:${randomUUID()}`,
      broadcasterUserId: String(100_000 + (index % channels)),
      ownerUserId: `u-${index % channels}`,
      content: `@viewer${index % 1000} the current song is "Something" (${index})`,
      replyToMessageId: randomUUID(),
      replyToUsername: `viewer${index % 1000}`,
      origin: ChatOrigin.COMMAND,
      sourceReceivedAt: at,
      sourceSentAt: at,
    } as Parameters<typeof sender.handle>[0];
  };
  // warm-up: the code paths compiled, the channels' sender states read
  for (let index = 0; index < channels; index += 1) await sender.handle(chatSend(index));
  await sender.drain();

  const heapBefore = heapAfterGc();
  const cpuBefore = process.cpuUsage();
  // 32 channels at a time, each reply going to Kick at once (nothing waits in its channel)
  for (let start = 0; start < count; start += 32) {
    const batch = Array.from({ length: Math.min(32, count - start) }, (_, offset) => chatSend(start + offset));
    await Promise.all(batch.map((message) => sender.handle(message)));
    await sender.drain();
  }
  const cpu = process.cpuUsage(cpuBefore);
  const heldBytes = heapAfterGc() - heapBefore;
  if (failed > 0) throw new Error(`${failed} replies were not posted`);
  console.log(
    JSON.stringify({
      root: values.root,
      replies: count,
      heapBytesPerReply: Math.round(heldBytes / count),
      cpuMicrosPerReply: Number(((cpu.user + cpu.system) / count).toFixed(1)),
      rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
    }),
  );
  await store.close();
  await rm(dir, { recursive: true, force: true });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
