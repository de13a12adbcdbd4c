import { randomUUID } from 'node:crypto';
import { eventually } from '@kickstand/platform/testing';
import { KickAccountChangeKind, ModerationActionKind } from '@kickstand/proto';
import { missingScopeMessage } from './moderation-actions';
import { aKickName, startStack, type Stack } from './testing/test-harness';

// moderation.action → the Kick call on the sandbox with the streamer's token → moderation.result.

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack.close();
});

interface Streamer {
  userId: string;
  kickName: string;
  broadcasterId: string;
}

/** Linked through the flow; `moderation`: started as the Moderation page's "Grant moderation access" does. */
async function aLinkedStreamer(moderation: boolean): Promise<Streamer> {
  const userId = `u-${randomUUID()}`;
  const kickName = aKickName();
  const start = `/api/platform/kick/link${moderation ? '?moderation=true' : ''}`;
  const { query } = await stack.startLink(start, stack.tokenFor(userId), { sandbox_auto_approve: kickName });
  expect((await stack.callback(query)).location).toBe('/dashboard?kick_linked=true');
  return { userId, kickName, broadcasterId: String(await stack.kickUserId(kickName)) };
}

/** A viewer's line in the streamer's channel at Kick: its message id and the viewer's Kick id. */
async function viewerSays(streamer: Streamer, content: string): Promise<{ messageId: string; viewerId: string }> {
  const viewer = aKickName('viewer');
  const posted = await stack.control<{ message: { messageId: string } }>('POST', '/events/chat', {
    broadcaster: streamer.kickName,
    sender: viewer,
    content,
  });
  return { messageId: posted.message.messageId, viewerId: String(await stack.kickUserId(viewer)) };
}

function act(streamer: Streamer, kind: ModerationActionKind, fields: Record<string, unknown>, key: string) {
  return stack.platform.bus.publish('moderation.action', streamer.broadcasterId, {
    eventId: randomUUID(),
    idempotencyKey: key,
    broadcasterUserId: streamer.broadcasterId,
    ownerUserId: streamer.userId,
    kind,
    logEntryId: key,
    ...fields,
  });
}

const resultsFor = (key: string) =>
  stack.recorded.published('moderation.result').filter((message) => message.logEntryId === key);

interface BanView {
  userId: number;
  isTimeout: boolean;
  isActive: boolean;
  reason: string;
}
const bansAtKick = (streamer: Streamer) =>
  stack.control<BanView[]>('GET', `/bans?broadcasterUserId=${streamer.broadcasterId}`);

test('when the link is started with moderation=true, then Kick is asked the moderation scopes and kick.account carries them', async () => {
  const streamer = await aLinkedStreamer(true);
  const linked = stack.recorded
    .published('kick.account')
    .find((message) => message.userId === streamer.userId && message.kind === KickAccountChangeKind.LINKED);
  expect(linked?.scopes).toEqual(['user:read', 'chat:write', 'moderation:chat_message:manage', 'moderation:ban']);
});

test('when a delete is asked, then the message is deleted at Kick and the result is ok', async () => {
  const streamer = await aLinkedStreamer(true);
  const { messageId } = await viewerSays(streamer, 'visit spam.example.net');
  const key = `moderation:${messageId}`;

  await act(streamer, ModerationActionKind.DELETE_MESSAGE, { messageId }, key);

  await eventually(() =>
    expect(resultsFor(key)).toMatchObject([{ ok: true, error: '', kind: ModerationActionKind.DELETE_MESSAGE }]),
  );
  const lines = await stack.control<{ messageId: string; deletedAt: string | null }[]>(
    'GET',
    `/chat?broadcasterUserId=${streamer.broadcasterId}`,
  );
  expect(lines.find((line) => line.messageId === messageId)?.deletedAt).toEqual(expect.any(String));
});

test('when a timeout is delivered twice, then Kick is called once and both deliveries are answered ok; an unban lifts it', async () => {
  const streamer = await aLinkedStreamer(true);
  const { viewerId } = await viewerSays(streamer, 'SHOUTING');
  const key = `moderation:${randomUUID()}`;
  const timeout = { targetUserId: viewerId, durationMinutes: 10, reason: 'Kickstand filter: caps' };

  await act(streamer, ModerationActionKind.TIMEOUT, timeout, key);
  await act(streamer, ModerationActionKind.TIMEOUT, timeout, key);

  await eventually(() => expect(resultsFor(key).map((result) => result.ok)).toEqual([true, true]));
  expect(await bansAtKick(streamer)).toMatchObject([
    { userId: Number(viewerId), isTimeout: true, isActive: true, reason: 'Kickstand filter: caps' },
  ]);

  await act(streamer, ModerationActionKind.UNBAN, { targetUserId: viewerId }, `undo:${key}`);
  await eventually(() =>
    expect(resultsFor(`undo:${key}`)).toMatchObject([{ ok: true, kind: ModerationActionKind.UNBAN }]),
  );
  expect(await bansAtKick(streamer)).toMatchObject([{ userId: Number(viewerId), isActive: false }]);
});

test('when the link lacks the moderation scopes, then Kick is not called and the result says which scope', async () => {
  const streamer = await aLinkedStreamer(false);
  const { viewerId } = await viewerSays(streamer, 'spam');
  const key = `moderation:${randomUUID()}`;

  await act(streamer, ModerationActionKind.BAN, { targetUserId: viewerId, reason: 'x' }, key);

  await eventually(() =>
    expect(resultsFor(key)).toMatchObject([{ ok: false, error: missingScopeMessage('moderation:ban') }]),
  );
  expect(await bansAtKick(streamer)).toEqual([]);
});
