import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@kickstand/platform/config';
import { startHttpService } from '@kickstand/platform/lifecycle';
import { createTestPlatform, eventually } from '@kickstand/platform/testing';
import { ChatOrigin } from '@kickstand/proto';
import type { KickLinkOptions } from './options';
import { createKickLinkService } from './service';
import { tokenKeyFileIn } from './token-key';
import { aKickName, startStack, testApp, type Stack } from './testing/test-harness';

const sandboxOptions = (stack: Stack): KickLinkOptions => ({
  kick: {
    clientId: testApp.clientId,
    clientSecret: testApp.clientSecret,
    redirectUri: testApp.redirectUri,
    oauthUrl: stack.sandboxUrl,
    apiUrl: `${stack.sandboxUrl}/public/v1`,
  },
  publicKeyRefetchIntervalMs: 0,
});

describe('start-up', () => {
  test('when NODE_ENV is production and no token key is given, then start() refuses, naming KICK_TOKEN_ENCRYPTION_KEY', async () => {
    const platform = await createTestPlatform('kick-link');
    try {
      const service = createKickLinkService(platform, {
        kick: {
          clientId: 'c',
          clientSecret: 's',
          redirectUri: 'http://x/cb',
          oauthUrl: 'http://x',
          apiUrl: 'http://x',
        },
        isProduction: true,
      });
      const starting = service.start();
      await expect(starting).rejects.toBeInstanceOf(ConfigError);
      await expect(starting).rejects.toThrow(/KICK_TOKEN_ENCRYPTION_KEY/);
    } finally {
      await platform.close();
    }
  });
});

describe('without KICK_TOKEN_ENCRYPTION_KEY outside production', () => {
  let stack: Stack;
  const dataDir = path.join(os.tmpdir(), `kickstand-kick-link-${randomUUID()}`);
  const tokenKeyFile = tokenKeyFileIn(dataDir);

  beforeAll(async () => {
    stack = await startStack({ options: { tokenEncryptionKey: undefined, tokenKeyFile } });
  });

  afterAll(async () => {
    await stack.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('when kick-link restarts on the same store, then the generated key is reused and the stored tokens still open', async () => {
    const userId = `u-${randomUUID()}`;
    const kickName = aKickName();
    expect((await stack.link(userId, kickName)).location).toBe('/dashboard?kick_linked=true');
    const kickUserId = await stack.kickUserId(kickName);

    // a second process on the same store (as after a restart) unlinks: revoking needs the tokens in clear
    const again = await startHttpService(
      createKickLinkService({ ...stack.platform }, { ...sandboxOptions(stack), tokenKeyFile }),
      {
        port: 0,
        host: '127.0.0.1',
      },
    );
    try {
      const answer = await fetch(`http://127.0.0.1:${again.port}/api/platform/kick/unlink`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${stack.tokenFor(userId)}` },
      });
      expect(answer.status).toBe(200);
    } finally {
      await again.stop();
    }
    const tokens = await stack.control<{ isActive: boolean; revokedAt: string | null }[]>(
      'GET',
      `/tokens?userId=${kickUserId}`,
    );
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.every((token) => token.revokedAt !== null)).toBe(true);
  });

  test('when a delivery is replayed to a restarted kick-link, then the stored message id still catches it', async () => {
    const userId = `u-${randomUUID()}`;
    const kickName = aKickName();
    await stack.link(userId, kickName);
    const broadcasterId = await stack.kickUserId(kickName);
    await stack.subscribeAtKick(broadcasterId, ['chat.message.sent']);
    const created = await stack.control<{ message: { messageId: string } }>('POST', '/events/chat', {
      broadcaster: kickName,
      sender: 'viewer_alice',
      content: 'once only',
    });
    let original: (typeof stack.forwarded)[number] | undefined;
    await eventually(() => {
      original = stack.forwarded.find((item) => item.rawBody.toString('utf8').includes(created.message.messageId));
      expect(original?.status).toBe(200);
    });
    const count = () => stack.recorded.published('chat.received').filter((m) => m.content === 'once only').length;
    expect(count()).toBe(1);

    // the sandbox's key as the fallback, until the sandbox serves /public-key without a token
    const { publicKey } = await stack.control<{ publicKey: string }>('GET', '/signing-key');
    const again = await startHttpService(
      createKickLinkService(
        { ...stack.platform, bus: stack.recorded.bus },
        { ...sandboxOptions(stack), publicKeyFallbackPem: publicKey, tokenKeyFile },
      ),
      { port: 0, host: '127.0.0.1' },
    );
    try {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(original?.headers ?? {})) {
        if (typeof value === 'string' && (name.startsWith('kick-event-') || name === 'content-type'))
          headers[name] = value;
      }
      const replay = await fetch(`http://127.0.0.1:${again.port}/api/kick/webhook`, {
        method: 'POST',
        headers,
        body: original?.rawBody,
      });
      expect(replay.status).toBe(200);
    } finally {
      await again.stop();
    }
    expect(count()).toBe(1);
  });
});

describe('KICK_CHAT_SENDER=user', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ options: { chatSender: 'user' } });
  });

  afterAll(async () => {
    await stack.close();
  });

  test("when a line is sent, then it is posted as the channel owner, and only its echo (not the streamer's own typing) is from the bot", async () => {
    const userId = `u-${randomUUID()}`;
    const kickName = aKickName();
    await stack.link(userId, kickName);
    const broadcasterId = String(await stack.kickUserId(kickName));
    await stack.subscribeAtKick(Number(broadcasterId), ['chat.message.sent']);

    await stack.platform.bus.publish('chat.send', broadcasterId, {
      eventId: randomUUID(),
      idempotencyKey: `reply:${randomUUID()}`,
      broadcasterUserId: broadcasterId,
      ownerUserId: userId,
      content: 'posted as the streamer',
      origin: ChatOrigin.SYSTEM,
    });
    await stack.control('POST', '/events/chat', { broadcaster: kickName, sender: kickName, content: 'typed by hand' });

    const received = () =>
      stack.recorded.published('chat.received').filter((m) => m.broadcasterUserId === broadcasterId);
    await eventually(() => expect(received()).toHaveLength(2), 5000);
    const lines = await stack.control<{ type: string; senderUsername: string; content: string }[]>(
      'GET',
      `/chat?broadcasterUserId=${broadcasterId}`,
    );
    expect(lines.find((line) => line.content === 'posted as the streamer')).toMatchObject({
      type: 'user',
      senderUsername: kickName,
    });
    const byContent = Object.fromEntries(received().map((m) => [m.content, [m.isFromBot, m.sender?.username]]));
    expect(byContent).toEqual({
      'posted as the streamer': [true, kickName],
      'typed by hand': [false, kickName],
    });
  });
});
