import { createServer } from 'node:http';
import { eventually, listenLocally, type LocalServer } from '@kickstand/platform/testing';
import { ChatOrigin, CommandKind, Game, GameEventKind } from '@kickstand/proto';
import { commandCatalog } from './catalog';
import { mmrReplies } from './games/dota';
import { gameReplies } from './games/one-at-a-time';
import { createGamesRepository } from './repository';
import type { GamesService } from './service';
import {
  aChannel,
  aViewer,
  createGamesHarness,
  publishBotStatus,
  say,
  startOpenDotaStandIn,
  streamerOf,
  type ChannelUnderTest,
  type GamesHarness,
  type OpenDotaStandIn,
} from './testing/test-support';

let harness: GamesHarness;
let standIn: OpenDotaStandIn;
let service: GamesService;
let server: LocalServer;
let baseUrl: string;

beforeAll(async () => {
  standIn = await startOpenDotaStandIn();
});
afterAll(() => standIn.close());

beforeEach(async () => {
  harness = await createGamesHarness();
  service = await harness.startService({ openDotaUrl: standIn.url, openDotaTimeoutMs: 300 });
  server = await listenLocally(createServer(service.app));
  baseUrl = server.url;
});
afterEach(async () => {
  await server.close();
  await harness.close();
});

const contents = (channel: ChannelUnderTest) => harness.lines(channel).map((line) => line.content);

async function request(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const tokenFor = (userId: string) => harness.platform.signToken({ userId, username: `name-${userId}`, role: 'USER' });

describe('chat.received → chat.send and game.event', () => {
  test('when the broadcaster starts a raid boss, then the reply answers the message and game.event says STARTED', async () => {
    const channel = aChannel();
    await harness.startBot(channel);
    const receivedAt = harness.clock.now();
    const messageId = await harness.sayAndWait(channel, streamerOf(channel), '$game raidboss 10');

    const [line] = harness.lines(channel);
    expect(line).toMatchObject({
      idempotencyKey: `game:${messageId}`,
      broadcasterUserId: channel.broadcasterUserId,
      ownerUserId: channel.ownerUserId,
      replyToMessageId: messageId,
      replyToUsername: 'streamer',
      origin: ChatOrigin.GAME,
      sourceReceivedAt: expect.objectContaining({ seconds: BigInt(receivedAt.getTime() / 1000) }),
      // no created_at in this delivery: the line's own time is its arrival
      sourceSentAt: expect.objectContaining({ seconds: BigInt(receivedAt.getTime() / 1000) }),
    });
    expect(line?.content).toMatch(/^⚔️ RAID BOSS! Mother of Ash appears with 20,000 HP\. Defeat it within 10 minutes!/);
    expect(line?.content.length).toBeLessThanOrEqual(500);
    await eventually(() => expect(harness.events(channel)).toHaveLength(1));
    expect(harness.events(channel)[0]).toMatchObject({
      eventId: `rb-${messageId}:started`,
      gameId: `rb-${messageId}`,
      game: Game.RAID_BOSS,
      kind: GameEventKind.STARTED,
      ownerUserId: channel.ownerUserId,
      actorUserId: channel.broadcasterUserId,
      actorUsername: 'streamer',
      endsAt: expect.objectContaining({ seconds: BigInt(receivedAt.getTime() / 1000 + 600) }),
      details: { case: 'raidBoss', value: expect.objectContaining({ hp: 20000, maxHp: 20000 }) },
    });
  });

  test('when a viewer tries to start a game, then they are told only the broadcaster can, and no game starts', async () => {
    const channel = aChannel();
    await harness.startBot(channel);
    await harness.sayAndWait(channel, aViewer('ann'), '$game raidboss');
    await harness.sayAndWait(channel, aViewer('ann'), '$attack');
    expect(contents(channel)).toEqual([gameReplies.broadcasterOnlyStart, gameReplies.noRaidBoss]);
    expect(harness.events(channel)).toEqual([]);
  });

  test('when a game runs and another is started, then the reply says a game is already running', async () => {
    const channel = aChannel();
    await harness.startBot(channel);
    await harness.sayAndWait(channel, streamerOf(channel), '$game gmb 3');
    await harness.sayAndWait(channel, streamerOf(channel), '$game raidboss');
    expect(contents(channel).at(-1)).toBe(gameReplies.alreadyRunning);
  });

  test('when the duration is out of range, then the reply names the range', async () => {
    const channel = aChannel();
    await harness.startBot(channel);
    await harness.sayAndWait(channel, streamerOf(channel), '$game raidboss 61');
    expect(contents(channel)).toEqual(['A game lasts 1 to 60 minutes, e.g. $game raidboss 10.']);
  });

  test('when a viewer attacks too early twice, then only the first early attack gets a reply', async () => {
    const channel = aChannel();
    const ann = aViewer('ann');
    await harness.startBot(channel);
    await harness.sayAndWait(channel, streamerOf(channel), '$game raidboss');
    await harness.sayAndWait(channel, ann, '$attack');
    harness.clock.advance(2000);
    await harness.sayAndWait(channel, ann, '$attack');
    harness.clock.advance(1000);
    await say(harness.platform.bus, channel, ann, '$attack', { receivedAt: harness.clock.now() }); // silent: already told
    await harness.sayAndWait(channel, ann, '$hero am'); // handled after it (same key)
    harness.clock.advance(2000);
    await harness.sayAndWait(channel, ann, '$attack');

    expect(contents(channel).slice(1)).toEqual([
      'ann hits Mother of Ash with Lightning for 400 damage! 19,600/20,000 HP left.',
      'Wait 3s before your next attack.',
      expect.stringMatching(/^Anti-Mage: /),
      'ann hits Mother of Ash with Lightning for 400 damage! 19,200/20,000 HP left.',
    ]);
  });

  test('when 3 attacks typed 5 s apart arrive together after an outage, then all 3 hit', async () => {
    const channel = aChannel();
    const ann = aViewer('ann');
    await harness.startBot(channel);
    await harness.sayAndWait(channel, streamerOf(channel), '$game raidboss');
    const typedAt = harness.clock.now().getTime();
    harness.clock.advance(60_000); // the outage: all three are played at the same moment, a minute later
    for (let index = 0; index < 3; index++) {
      const sent = new Date(typedAt + index * 5000);
      await harness.sayAndWait(channel, ann, '$attack', {
        createdAt: sent,
        receivedAt: new Date(sent.getTime() + 100),
      });
    }

    expect(contents(channel).slice(1)).toEqual([
      'ann hits Mother of Ash with Lightning for 400 damage! 19,600/20,000 HP left.',
      'ann hits Mother of Ash with Lightning for 400 damage! 19,200/20,000 HP left.',
      'ann hits Mother of Ash with Lightning for 400 damage! 18,800/20,000 HP left.',
    ]);
  });

  test('when two attacks are sent 1 s apart by created_at, then the second waits even if played 6 s apart', async () => {
    const channel = aChannel();
    const ann = aViewer('ann');
    await harness.startBot(channel);
    await harness.sayAndWait(channel, streamerOf(channel), '$game raidboss');
    const typedAt = harness.clock.now().getTime();
    await harness.sayAndWait(channel, ann, '$attack', { createdAt: new Date(typedAt) });
    harness.clock.advance(6000);
    await harness.sayAndWait(channel, ann, '$attack', {
      createdAt: new Date(typedAt + 1000),
      receivedAt: new Date(typedAt + 1000),
    });

    expect(contents(channel).slice(1)).toEqual([
      'ann hits Mother of Ash with Lightning for 400 damage! 19,600/20,000 HP left.',
      'Wait 4s before your next attack.',
    ]);
  });

  test('when the same chat message is delivered twice, then it is played once', async () => {
    const channel = aChannel();
    await harness.startBot(channel);
    await harness.sayAndWait(channel, streamerOf(channel), '$game raidboss');
    const ann = aViewer('ann');
    const messageId = await harness.sayAndWait(channel, ann, '$attack');
    // the same message again, as a replay after a rebalance would deliver it
    const message = harness.recorded.published('chat.send').find((line) => line.idempotencyKey === `game:${messageId}`);
    expect(message).toBeDefined();
    await harness.platform.bus.publish('chat.received', channel.broadcasterUserId, {
      eventId: 'replayed',
      messageId,
      broadcasterUserId: channel.broadcasterUserId,
      broadcasterUsername: 'streamer',
      ownerUserId: channel.ownerUserId,
      sender: { userId: ann.userId, username: ann.username },
      content: '$attack',
    });
    await harness.sayAndWait(channel, ann, '$hero am');

    expect(harness.lines(channel).filter((line) => line.idempotencyKey === `game:${messageId}`)).toHaveLength(1);
    const channelDoc = await createGamesRepository(harness.platform.store).findChannel(channel.broadcasterUserId);
    expect(channelDoc?.game).toMatchObject({ hp: 19600 });
  });

  test("when the message is the bot's own line, then it is ignored", async () => {
    const channel = aChannel();
    await harness.startBot(channel);
    await say(harness.platform.bus, channel, streamerOf(channel), '$game raidboss', { isFromBot: true });
    await harness.sayAndWait(channel, aViewer('ann'), '$hero wr');
    expect(contents(channel)).toEqual([expect.stringMatching(/^Windranger: /)]);
    expect(harness.events(channel)).toEqual([]);
  });

  test('when the channel bot is not running, then nothing is answered; once it runs, commands are', async () => {
    const channel = aChannel();
    const repo = createGamesRepository(harness.platform.store);
    await harness.startBot(channel);
    await publishBotStatus(harness.platform.bus, channel, false, harness.clock.now().getTime() + 1);
    await eventually(async () => expect(await repo.isBotRunning(channel.ownerUserId)).toBe(false));

    await say(harness.platform.bus, channel, streamerOf(channel), '$game raidboss');
    await say(harness.platform.bus, channel, aViewer('ann'), '$hero am');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(harness.lines(channel)).toEqual([]);
    expect(await repo.findChannel(channel.broadcasterUserId)).toBeNull();

    await publishBotStatus(harness.platform.bus, channel, true, harness.clock.now().getTime() + 2);
    await eventually(async () => expect(await repo.isBotRunning(channel.ownerUserId)).toBe(true));
    await harness.sayAndWait(channel, aViewer('ann'), '$hero am');
    expect(contents(channel)).toEqual([expect.stringMatching(/^Anti-Mage: /)]);
  });

  test('when an older bot.status arrives after a newer one, then the newer one stands', async () => {
    const channel = aChannel();
    const repo = createGamesRepository(harness.platform.store);
    const now = harness.clock.now().getTime();
    await publishBotStatus(harness.platform.bus, channel, true, now + 10);
    await eventually(async () => expect(await repo.isBotRunning(channel.ownerUserId)).toBe(true));
    await publishBotStatus(harness.platform.bus, channel, false, now); // older
    await publishBotStatus(harness.platform.bus, channel, true, now + 10); // a replay, as a marker
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await repo.isBotRunning(channel.ownerUserId)).toBe(true);
  });
});

describe('command.executed (the admin analytics)', () => {
  test('when a game command and a built-in are answered, then each answer is a command.executed of its kind; announcements are not', async () => {
    const channel = aChannel();
    await harness.startBot(channel);
    const started = await harness.sayAndWait(channel, streamerOf(channel), '$game raidboss 10');
    const ann = aViewer('ann');
    const asked = await harness.sayAndWait(channel, ann, '$Hero am');

    await eventually(() =>
      expect(harness.recorded.published('command.executed').map((message) => message.command)).toHaveLength(2),
    );
    const executed = harness.recorded.published('command.executed');
    expect(
      executed.map(({ eventId, command, kind, messageId, invokedByUsername, ownerUserId }) => ({
        eventId,
        command,
        kind,
        messageId,
        invokedByUsername,
        ownerUserId,
      })),
    ).toEqual([
      {
        eventId: `executed:game:${started}`,
        command: 'game',
        kind: CommandKind.GAME,
        messageId: started,
        invokedByUsername: 'streamer',
        ownerUserId: channel.ownerUserId,
      },
      {
        eventId: `executed:game:${asked}`,
        command: 'hero',
        kind: CommandKind.BUILT_IN,
        messageId: asked,
        invokedByUsername: 'ann',
        ownerUserId: channel.ownerUserId,
      },
    ]);
  });
});

describe('$hero, $mmr and $rank', () => {
  test('when a viewer asks for a hero by a short name, then the hero data answers', async () => {
    const channel = aChannel();
    await harness.startBot(channel);
    await harness.sayAndWait(channel, aViewer('ann'), '$hero AM');
    await harness.sayAndWait(channel, aViewer('ann'), '$hero nobody');
    expect(contents(channel)).toEqual([
      expect.stringMatching(/^Anti-Mage: Agility, Melee · Roles: Carry/),
      'No Dota 2 hero matches "nobody".',
    ]);
  });

  test('when no Steam account is set, then $mmr says so', async () => {
    const channel = aChannel();
    await harness.startBot(channel);
    await harness.sayAndWait(channel, aViewer('ann'), '$mmr');
    expect(contents(channel)).toEqual([mmrReplies.noAccount]);
  });

  test('when the streamer set a public account, then $mmr and $rank show medal and stars, leaderboard and MMR, cached for 10 minutes', async () => {
    const channel = aChannel();
    await harness.startBot(channel);
    const put = await request('PUT', '/api/games/settings', {
      token: tokenFor(channel.ownerUserId),
      body: { steamAccountId: '76561198030654385' },
    });
    expect(put).toEqual({ status: 200, body: { success: true, data: { steamAccountId: 70388657 } } });
    const path = '/api/players/70388657';
    const asked = () => standIn.requests.filter((url) => url === path).length;
    const before = asked();

    await harness.sayAndWait(channel, aViewer('ann'), '$mmr');
    harness.clock.advance(9 * 60_000);
    await harness.sayAndWait(channel, aViewer('bob'), '$rank');
    expect(asked()).toBe(before + 1);
    harness.clock.advance(60_000);
    await harness.sayAndWait(channel, aViewer('bob'), '$rank');
    expect(asked()).toBe(before + 2);

    expect(contents(channel)).toEqual(Array(3).fill('Dendi: Legend 4 · Leaderboard #1,234 · Estimated MMR 4,370'));
  });

  test('when the profile is private, or OpenDota times out, then $mmr says so', async () => {
    const channel = aChannel();
    await harness.startBot(channel);
    const token = tokenFor(channel.ownerUserId);
    await request('PUT', '/api/games/settings', { token, body: { steamAccountId: 222 } });
    await harness.sayAndWait(channel, aViewer('ann'), '$mmr');
    await request('PUT', '/api/games/settings', { token, body: { steamAccountId: 333 } }); // answers after 1 s
    await harness.sayAndWait(channel, aViewer('ann'), '$mmr');
    expect(contents(channel)).toEqual([mmrReplies.private, mmrReplies.unreachable]);
  });
});

describe('GET /api/games/catalog', () => {
  test('when anyone asks without a token, then the catalogue comes in the spec order with name, description, example and rules', async () => {
    const answer = await request('GET', '/api/games/catalog');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, data: JSON.parse(JSON.stringify(commandCatalog)) });
    const data = answer.body.data as { categories: Array<{ name: string; commands: Array<Record<string, unknown>> }> };
    expect(data.categories.map((category) => category.name)).toEqual(['Dota 2', 'Game Features', 'Interactive']);
    expect(data.categories.map((category) => category.commands.map((command) => command.name))).toEqual([
      ['$hero', '$mmr', '$rank'],
      ['$game', '$attack', '$gmb'],
      [],
    ]);
    for (const command of data.categories.flatMap((category) => category.commands)) {
      expect(command).toEqual({
        name: expect.stringMatching(/^\$[a-z]+$/),
        description: expect.any(String),
        example: expect.stringMatching(/^\$/),
        ...(command.rules === undefined ? {} : { rules: expect.arrayContaining([expect.any(String)]) }),
      });
    }
    const game = data.categories[1]?.commands[0];
    expect(game?.rules).toEqual(expect.arrayContaining(['Only one game may run at a time in a channel.']));
  });
});

describe('/api/games/settings', () => {
  test('when there is no token, then 401', async () => {
    expect((await request('GET', '/api/games/settings')).status).toBe(401);
    expect((await request('PUT', '/api/games/settings', { body: { steamAccountId: 1 } })).status).toBe(401);
  });

  test('when nothing was set, then the account is null; a 32-bit id is kept; null clears it', async () => {
    const token = tokenFor('user-settings');
    expect(await request('GET', '/api/games/settings', { token })).toEqual({
      status: 200,
      body: { success: true, data: { steamAccountId: null } },
    });
    await request('PUT', '/api/games/settings', { token, body: { steamAccountId: 70388657 } });
    expect((await request('GET', '/api/games/settings', { token })).body.data).toEqual({ steamAccountId: 70388657 });
    await request('PUT', '/api/games/settings', { token, body: { steamAccountId: null } });
    expect((await request('GET', '/api/games/settings', { token })).body.data).toEqual({ steamAccountId: null });
  });

  test.each([
    [{ steamAccountId: 'abc' }],
    [{ steamAccountId: 0 }],
    [{ steamAccountId: -3 }],
    [{ steamAccountId: 1.5 }],
    // a 64-bit SteamID as a JSON number has lost its last digits by the time it is parsed
    [JSON.parse('{"steamAccountId":76561198030654385}') as unknown],
    [{ steamAccountId: '4294967296' }],
    [{ steamAccountId: true }],
    [{}],
    [{ steamAccountId: 1, extra: true }],
  ])('when the body is %j, then 400 and nothing changes', async (body) => {
    const token = tokenFor('user-bad-settings');
    const answer = await request('PUT', '/api/games/settings', { token, body });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, error: expect.any(String) });
    expect((await request('GET', '/api/games/settings', { token })).body.data).toEqual({ steamAccountId: null });
  });
});
