import { randomUUID } from 'node:crypto';
import type { Clock } from '@kickstand/platform/clock';
import { eventually, type TestPlatform } from '@kickstand/platform/testing';
import { ChangeKind, KickAccountChangeKind, UserChangeKind, UserRole, timestampFromDate } from '@kickstand/proto';
import { createBotsRepository } from '../repository';

// The streamers the bot-runner service tests drive: signed in to a running service, and told to
// bot-runner by the events the other services publish (created, linked, a command, bot started).

export interface Answer {
  status: number;
  body: { success: boolean; data?: unknown; message?: string; error?: string };
}

export interface TestStreamer {
  id: string;
  /** The Kick channel it is linked to (random). */
  broadcasterId: string;
  /** A request with the streamer's token to the service under test. */
  send(method: string, path: string, body?: unknown): Promise<Answer>;
}

export interface StreamerWorld {
  platform: TestPlatform;
  clock: Clock;
  /** Where the service under test listens (known once it started). */
  baseUrl: () => string;
}

/** A bus message's header at the world's time. */
export const eventHeader = ({ clock }: Pick<StreamerWorld, 'clock'>) => ({
  eventId: randomUUID(),
  occurredAt: timestampFromDate(clock.now()),
});

/** A streamer bot-runner knows nothing of yet, with its own token. */
export function aTestStreamer({ platform, baseUrl }: StreamerWorld): TestStreamer {
  const id = `u-${randomUUID()}`;
  const token = platform.signToken({ userId: id, username: `s_${id.slice(2, 8)}`, role: 'USER' });
  return {
    id,
    broadcasterId: String(Math.floor(Math.random() * 1e9) + 1),
    send: async (method, path, body) => {
      const response = await fetch(`${baseUrl()}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as Answer['body'] };
    },
  };
}

/** Created, linked, its bot started, with the command `name` answering `response`. */
export async function aRunningTestStreamer(
  world: StreamerWorld,
  name: string,
  response: string,
): Promise<TestStreamer> {
  const { platform } = world;
  const streamer = aTestStreamer(world);
  const header = () => eventHeader(world);
  await platform.bus.publish('user.changed', streamer.id, {
    ...header(),
    userId: streamer.id,
    kind: UserChangeKind.CREATED,
    username: 'streamer',
    role: UserRole.USER,
    isActive: true,
  });
  await platform.bus.publish('kick.account', streamer.id, {
    ...header(),
    userId: streamer.id,
    kind: KickAccountChangeKind.LINKED,
    kickUserId: streamer.broadcasterId,
    kickUsername: 'some_streamer',
  });
  await platform.bus.publish('command.changed', streamer.id, {
    ...header(),
    userId: streamer.id,
    kind: ChangeKind.ADDED,
    command: name,
    response,
  });
  const bots = createBotsRepository(platform.store);
  await eventually(async () => {
    if ((await bots.get(streamer.id))?.commands.length !== 1)
      throw new Error('bot-runner has not seen the command yet');
  });
  const started = await streamer.send('POST', '/api/platform/bot/start');
  if (started.status !== 200)
    throw new Error(`the bot did not start: ${started.status} ${JSON.stringify(started.body)}`);
  return streamer;
}
