import { existsSync } from 'node:fs';
import path from 'node:path';
import { createSilentLogger } from '@kickstand/platform/log';
import type { ChannelEventPayload, ChatMessagePayload } from '@kickstand/platform/socket-events';
import { createEmbeddedStore, type Document } from '@kickstand/platform/store';
import { createTempDirs } from '@kickstand/platform/testing';
import { createChatLog } from './chat-log';
import { createRealtimeRepository } from './repository';

const dirs = createTempDirs('chat-log');
let dir: string;
beforeEach(async () => {
  dir = await dirs.make();
});
afterEach(() => dirs.removeAll());

const base = Date.UTC(2026, 2, 1, 20, 0, 0);
const message = (n: number): ChatMessagePayload => ({
  id: `msg-${n}`,
  username: 'viewer_bob',
  content: `line ${n}`,
  timestamp: new Date(base + n * 1000).toISOString(),
  replyTo: null,
  isModerator: false,
  isSubscriber: false,
  badges: [{ type: 'og' }],
  isBot: false,
});
const follow: ChannelEventPayload = {
  id: 'event:k-1',
  timestamp: new Date(base + 130_500).toISOString(),
  username: 'new_fan',
  kind: 'followed',
};

/** A document of the collection `chat-lines` as versions before the recent log wrote it. */
type FormerLine = Document & { userId: string; at: Date; payload?: ChatMessagePayload; event?: ChannelEventPayload };

describe('the chat log on upgrade', () => {
  test('when the data folder holds the former chat-lines collection, then each streamer keeps the newest 100 lines and the collection is gone', async () => {
    const before = await createEmbeddedStore({ dir });
    const former = before.collection<FormerLine>('chat-lines');
    await former.createIndex({ fields: { userId: 1, at: -1 } });
    // 125 lines, as the former trim every 25th write could leave, and an event line among them
    for (let n = 1; n <= 125; n++) {
      await former.insertOne({ _id: `msg-${n}`, userId: 'u1', at: new Date(base + n * 1000), payload: message(n) });
    }
    await former.insertOne({ _id: follow.id, userId: 'u1', at: new Date(follow.timestamp), event: follow });
    await former.insertOne({ _id: 'msg-other', userId: 'u2', at: new Date(base), payload: message(0) });
    await before.close();

    const store = await createEmbeddedStore({ dir });
    const repo = createRealtimeRepository(store);
    await repo.open();
    const chatLog = createChatLog({ repo, log: createSilentLogger() });
    const history = await chatLog.recent('u1');
    // the newest 100 of both kinds: the event line (at 130.5 s) and messages 27–125
    expect(history.events).toEqual([follow]);
    expect(history.messages).toEqual(Array.from({ length: 99 }, (_, i) => message(i + 27)));
    expect((await chatLog.recent('u2')).messages).toEqual([message(0)]);
    expect(existsSync(path.join(dir, 'chat-lines.db'))).toBe(false);

    chatLog.append('u1', message(126), new Date(base + 126_000));
    await chatLog.flush();
    await store.close();

    const restarted = await createEmbeddedStore({ dir });
    const again = createChatLog({ repo: createRealtimeRepository(restarted), log: createSilentLogger() });
    const after = await again.recent('u1');
    expect(after.messages.map((line) => line.id)).toEqual(Array.from({ length: 99 }, (_, i) => `msg-${i + 28}`));
    expect(after.events).toEqual([follow]);
    await restarted.close();
  });
});
