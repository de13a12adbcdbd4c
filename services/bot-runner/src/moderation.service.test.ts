import { randomUUID } from 'node:crypto';
import { defaultModerationFilters, moderationMessages, type ModerationFilters } from '@kickstand/api-contract';
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
import {
  KickAccountChangeKind,
  ModerationActionKind,
  UserChangeKind,
  UserRole,
  timestampFromDate,
} from '@kickstand/proto';
import { createBotRunnerService } from './service';

// The moderation filters through a running bot-runner: the routes, chat.received in, moderation.action out.

const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
let platform: TestPlatform;
let recorded: RecordedBus<KickstandTopics>;
let running: RunningService;

beforeAll(async () => {
  platform = await createTestPlatform('bot-runner', { clock });
  recorded = recordPublished(platform.bus, kickstandTopics);
  running = await startHttpService(createBotRunnerService({ ...platform, bus: recorded.bus }, { instanceId: 'one' }), {
    port: 0,
  });
});

afterAll(async () => {
  await running.stop();
  await platform.close();
});

interface Answer {
  status: number;
  body: { success: boolean; data?: unknown; message?: string; error?: string };
}

interface Streamer {
  id: string;
  broadcasterId: string;
  send(method: string, path: string, body?: unknown): Promise<Answer>;
}

const header = () => ({ eventId: randomUUID(), occurredAt: timestampFromDate(clock.now()) });
const moderationScopes = ['user:read', 'chat:write', 'moderation:chat_message:manage', 'moderation:ban'];

/** Created and linked with the given scopes; its bot started unless told. */
async function aStreamer(scopes: string[], start = true): Promise<Streamer> {
  const id = `u-${randomUUID()}`;
  const token = platform.signToken({ userId: id, username: `s_${id.slice(2, 8)}`, role: 'USER' });
  const streamer: Streamer = {
    id,
    broadcasterId: String(Math.floor(Math.random() * 1e9) + 1),
    send: async (method, path, body) => {
      const response = await fetch(`http://127.0.0.1:${running.port}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as Answer['body'] };
    },
  };
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
    kickUserId: streamer.broadcasterId,
    kickUsername: 'some_streamer',
    scopes,
  });
  if (start) {
    await eventually(async () => expect((await streamer.send('POST', '/api/platform/bot/start')).status).toBe(200));
  }
  return streamer;
}

const linksOn = (overrides: Partial<ModerationFilters['links']> = {}): ModerationFilters => ({
  ...defaultModerationFilters,
  links: { ...defaultModerationFilters.links, enabled: true, allowedDomains: ['kick.com'], ...overrides },
});

async function chat(
  streamer: Streamer,
  content: string,
  sender: { userId: string; username: string; badges?: string[] } = { userId: '777', username: 'viewer_one' },
  messageId: string = randomUUID(),
): Promise<string> {
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
      identity: { usernameColor: '', badges: (sender.badges ?? []).map((type) => ({ type, text: type, count: 0 })) },
    },
    content,
    receivedAt: timestampFromDate(clock.now()),
    isFromBot: false,
  });
  return messageId;
}

const actionsOf = (streamer: Streamer) =>
  recorded.published('moderation.action').filter((message) => message.ownerUserId === streamer.id);

describe('the filters routes', () => {
  test('when nothing was saved, then GET answers the defaults (all off) and the scopes still to grant', async () => {
    const streamer = await aStreamer(['user:read', 'chat:write'], false);
    await eventually(async () =>
      expect((await streamer.send('GET', '/api/moderation/filters')).body.data).toEqual({
        filters: defaultModerationFilters,
        missingScopes: ['moderation:chat_message:manage', 'moderation:ban'],
      }),
    );
  });

  test('when the link lacks the moderation scopes, then switching a filter on is refused with the grant message', async () => {
    const streamer = await aStreamer(['user:read', 'chat:write'], false);
    const answer = await streamer.send('PUT', '/api/moderation/filters', linksOn());
    expect(answer).toEqual({ status: 409, body: { success: false, error: moderationMessages.missingScope } });
    // all off is still saved without them
    expect((await streamer.send('PUT', '/api/moderation/filters', defaultModerationFilters)).status).toBe(200);
  });

  test('when the link has the scopes, then the filters are saved and read back', async () => {
    const streamer = await aStreamer(moderationScopes, false);
    await eventually(async () =>
      expect((await streamer.send('PUT', '/api/moderation/filters', linksOn())).status).toBe(200),
    );
    expect((await streamer.send('GET', '/api/moderation/filters')).body.data).toEqual({
      filters: linksOn(),
      missingScopes: [],
    });
  });

  test('when the body is invalid, then it is a 400 with the reason', async () => {
    const streamer = await aStreamer(moderationScopes, false);
    const bad = { ...linksOn(), caps: { ...defaultModerationFilters.caps, percent: 101 } };
    const answer = await streamer.send('PUT', '/api/moderation/filters', bad);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('The caps percentage is a whole number from 1 to 100.');
  });
});

describe('chat.received → moderation.action', () => {
  test('when a viewer posts a link, then one delete goes out (a replay adds none) and the log shows it', async () => {
    const streamer = await aStreamer(moderationScopes);
    await eventually(async () =>
      expect((await streamer.send('PUT', '/api/moderation/filters', linksOn())).status).toBe(200),
    );

    const line = await chat(streamer, 'visit spam.example.net');
    await eventually(() => expect(actionsOf(streamer)).toHaveLength(1));
    await chat(streamer, 'visit spam.example.net', undefined, line);
    await chat(streamer, 'see https://kick.com/some_streamer');

    const [action] = actionsOf(streamer);
    expect(action).toMatchObject({
      idempotencyKey: `moderation:${line}`,
      broadcasterUserId: streamer.broadcasterId,
      kind: ModerationActionKind.DELETE_MESSAGE,
      messageId: line,
      targetUserId: '777',
      logEntryId: `moderation:${line}`,
    });
    const log = await streamer.send('GET', '/api/moderation/log');
    expect(log.body.data).toEqual([
      {
        id: `moderation:${line}`,
        at: clock.now().toISOString(),
        filter: 'links',
        action: 'delete',
        timeoutMinutes: null,
        senderUsername: 'viewer_one',
        senderUserId: '777',
        content: 'visit spam.example.net',
        status: 'pending',
        error: '',
      },
    ]);
    expect(actionsOf(streamer)).toHaveLength(1);
  });

  test('when a moderator gives $permit, then the viewer posts one link; the next is deleted; a moderator’s link stays', async () => {
    const streamer = await aStreamer(moderationScopes);
    await eventually(async () =>
      expect((await streamer.send('PUT', '/api/moderation/filters', linksOn())).status).toBe(200),
    );
    const moderator = { userId: '55', username: 'the_mod', badges: ['moderator'] };

    await chat(streamer, 'my site: mod.example.org', moderator);
    await chat(streamer, '$permit @Viewer_One', moderator);
    await chat(streamer, 'here: one.example.net');
    const second = await chat(streamer, 'and two.example.net');

    await eventually(() => expect(actionsOf(streamer).map((action) => action.messageId)).toEqual([second]));
  });

  test('when a filter times out with a warning, then the warning goes to chat and kick-link’s answer lands in the log; undo sends an unban once', async () => {
    const streamer = await aStreamer(moderationScopes);
    const filters = linksOn({ action: { kind: 'timeout', timeoutMinutes: 10, warning: '{user}, no links' } });
    await eventually(async () =>
      expect((await streamer.send('PUT', '/api/moderation/filters', filters)).status).toBe(200),
    );

    const line = await chat(streamer, 'spam.example.net');
    await eventually(() => expect(actionsOf(streamer)).toHaveLength(1));
    expect(actionsOf(streamer)[0]).toMatchObject({ kind: ModerationActionKind.TIMEOUT, durationMinutes: 10 });
    await eventually(() =>
      expect(
        recorded.published('chat.send').find((message) => message.idempotencyKey === `warning:${line}`)?.content,
      ).toBe('viewer_one, no links'),
    );
    // the warning's own time, kept with its log entry: when the line was caught
    const warning = recorded.published('chat.send').find((message) => message.idempotencyKey === `warning:${line}`);
    expect(warning?.sourceSentAt).toEqual(warning?.occurredAt);
    expect(warning?.sourceSentAt).toBeDefined();

    const id = `moderation:${line}`;
    await platform.bus.publish('moderation.result', streamer.broadcasterId, {
      ...header(),
      broadcasterUserId: streamer.broadcasterId,
      ownerUserId: streamer.id,
      logEntryId: id,
      kind: ModerationActionKind.TIMEOUT,
      ok: true,
      error: '',
    });
    await eventually(async () =>
      expect((await streamer.send('GET', '/api/moderation/log')).body.data).toMatchObject([{ id, status: 'done' }]),
    );

    const undo = await streamer.send('POST', `/api/moderation/log/${encodeURIComponent(id)}/undo`);
    expect(undo).toMatchObject({ status: 200, body: { message: moderationMessages.undone } });
    expect(actionsOf(streamer)[1]).toMatchObject({
      idempotencyKey: `undo:${id}`,
      kind: ModerationActionKind.UNBAN,
      targetUserId: '777',
    });
    expect(await streamer.send('POST', `/api/moderation/log/${encodeURIComponent(id)}/undo`)).toEqual({
      status: 409,
      body: { success: false, error: moderationMessages.alreadyUndone },
    });
  });

  test('when another streamer asks to undo an entry, then it is not found', async () => {
    const streamer = await aStreamer(moderationScopes);
    const other = await aStreamer(moderationScopes, false);
    await eventually(async () =>
      expect((await streamer.send('PUT', '/api/moderation/filters', linksOn())).status).toBe(200),
    );
    const line = await chat(streamer, 'spam.example.net');
    await eventually(() => expect(actionsOf(streamer)).toHaveLength(1));

    expect(await other.send('POST', `/api/moderation/log/moderation:${line}/undo`)).toEqual({
      status: 404,
      body: { success: false, error: moderationMessages.notFound },
    });
    // a delete cannot be undone
    expect((await streamer.send('POST', `/api/moderation/log/moderation:${line}/undo`)).status).toBe(409);
  });
});
