import { randomUUID } from 'node:crypto';
import { defaultModerationFilters, type ModerationFilters } from '@kickstand/api-contract';
import { kickstandTopics, type KickstandTopics } from '@kickstand/platform/bus';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import {
  createFakeClock,
  createTestPlatform,
  eventually,
  recordPublished,
  type RecordedBus,
  type TestPlatform,
} from '@kickstand/platform/testing';
import { KickAccountChangeKind, UserChangeKind, UserRole, timestampFromDate } from '@kickstand/proto';
import { permitCollection, type PermitDoc } from './permits';
import { createBotRunnerService } from './service';

// A `$permit` given before bot-runner restarts still lets one link through after it (the store keeps it).

const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
let platform: TestPlatform;
let recorded: RecordedBus<KickstandTopics>;
let running: RunningService | undefined;

const start = async () => {
  running = await startHttpService(createBotRunnerService({ ...platform, bus: recorded.bus }, { instanceId: 'one' }), {
    port: 0,
  });
};

const restart = async () => {
  await running?.stop();
  await start();
};

beforeAll(async () => {
  platform = await createTestPlatform('bot-runner-permits', { clock });
  recorded = recordPublished(platform.bus, kickstandTopics);
  await start();
});

afterAll(async () => {
  await running?.stop();
  await platform.close();
});

const header = () => ({ eventId: randomUUID(), occurredAt: timestampFromDate(clock.now()) });
const moderator = { userId: '55', username: 'the_mod', badges: ['moderator'] };
const viewer = { userId: '777', username: 'Viewer_One', badges: [] };
const linksOn: ModerationFilters = {
  ...defaultModerationFilters,
  links: { ...defaultModerationFilters.links, enabled: true, allowedDomains: [] },
};

/** Linked with the moderation scopes, its bot started and the links filter on. */
async function aStreamer(): Promise<{ id: string; broadcasterId: string }> {
  const id = `u-${randomUUID()}`;
  const broadcasterId = String(Math.floor(Math.random() * 1e9) + 1);
  const token = platform.signToken({ userId: id, username: `s_${id.slice(2, 8)}`, role: 'USER' });
  const send = (method: string, path: string, body?: unknown) =>
    fetch(`http://127.0.0.1:${running?.port ?? 0}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  await platform.bus.publish('user.changed', id, {
    ...header(),
    userId: id,
    kind: UserChangeKind.CREATED,
    username: 'streamer',
    role: UserRole.USER,
    isActive: true,
  });
  await platform.bus.publish('kick.account', id, {
    ...header(),
    userId: id,
    kind: KickAccountChangeKind.LINKED,
    kickUserId: broadcasterId,
    kickUsername: 'some_streamer',
    scopes: ['user:read', 'chat:write', 'moderation:chat_message:manage', 'moderation:ban'],
  });
  await eventually(async () => expect((await send('POST', '/api/platform/bot/start')).status).toBe(200));
  await eventually(async () => expect((await send('PUT', '/api/moderation/filters', linksOn)).status).toBe(200));
  return { id, broadcasterId };
}

async function chat(
  streamer: { id: string; broadcasterId: string },
  content: string,
  sender: { userId: string; username: string; badges: string[] },
): Promise<string> {
  const messageId = randomUUID();
  await platform.bus.publish('chat.received', streamer.broadcasterId, {
    ...header(),
    kickMessageId: `01K${randomUUID()}`,
    messageId,
    broadcasterUserId: streamer.broadcasterId,
    broadcasterUsername: 'some_streamer',
    broadcasterChannelSlug: 'some_streamer',
    ownerUserId: streamer.id,
    sender: {
      userId: sender.userId,
      username: sender.username,
      channelSlug: sender.username,
      identity: { usernameColor: '', badges: sender.badges.map((type) => ({ type, text: type, count: 0 })) },
    },
    content,
    receivedAt: timestampFromDate(clock.now()),
    isFromBot: false,
  });
  return messageId;
}

const actedOn = (streamer: { id: string }) =>
  recorded
    .published('moderation.action')
    .filter((message) => message.ownerUserId === streamer.id)
    .map((message) => message.messageId);

/** The permit is in the store: what the moderator's line did before the restart. */
const permitStored = (streamer: { broadcasterId: string }) =>
  eventually(async () =>
    expect(
      await platform.store
        .collection<PermitDoc>(permitCollection)
        .findOne({ _id: `${streamer.broadcasterId}:viewer_one` }),
    ).not.toBeNull(),
  );

describe('a permit across a restart', () => {
  test('when a moderator gives $permit and bot-runner restarts, then the viewer still posts one link; the next is deleted', async () => {
    const streamer = await aStreamer();
    await chat(streamer, '$permit @Viewer_One', moderator);
    await permitStored(streamer);

    await restart();
    await chat(streamer, 'here: one.example.net', viewer);
    const second = await chat(streamer, 'and two.example.net', viewer);

    await eventually(() => expect(actedOn(streamer)).toEqual([second]));
  });

  test('when the permit is older than 60 s after the restart, then the viewer’s link is deleted', async () => {
    const streamer = await aStreamer();
    await chat(streamer, '$permit @Viewer_One', moderator);
    await permitStored(streamer);

    await restart();
    clock.advance(60_000);
    const link = await chat(streamer, 'here: one.example.net', viewer);

    await eventually(() => expect(actedOn(streamer)).toEqual([link]));
  });
});
