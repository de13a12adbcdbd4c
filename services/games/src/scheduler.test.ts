import type { KickstandBus } from '@kickstand/platform/bus';
import { eventually } from '@kickstand/platform/testing';
import { ChatOrigin, GameEventKind } from '@kickstand/proto';
import { createGamesRepository } from './repository';
import { createGamesService } from './service';
import {
  aChannel,
  aViewer,
  createGamesHarness,
  highest,
  scriptedRandom,
  streamerOf,
  type GamesHarness,
} from './testing/test-support';

// Every game here: HP 5,000 (scripted), then the highest value for every draw: the boss is
// "Mother of Ash", the weapons Lightning (20-400), Fireball, Spear, Hammer, and each hit does 400.

let harness: GamesHarness;
beforeEach(async () => {
  harness = await createGamesHarness();
});
afterEach(() => harness.close());

const alice = aViewer('alice');
const bob = aViewer('bob');
const carol = aViewer('carol');

/** The lines the game said on its own (no reply to a message): [idempotency key, content]. */
const announcements = (channel: ReturnType<typeof aChannel>) =>
  harness
    .lines(channel)
    .filter((line) => line.replyToMessageId === undefined)
    .map((line) => [line.idempotencyKey, line.content]);

const keysOf = (channel: ReturnType<typeof aChannel>) => harness.lines(channel).map((line) => line.idempotencyKey);

async function scriptedBoss(channel: ReturnType<typeof aChannel>, minutes: number) {
  const service = await harness.startService({ random: scriptedRandom([5000], highest) });
  await harness.startBot(channel);
  const startId = await harness.sayAndWait(channel, streamerOf(channel), `$game raidboss ${minutes}`);
  return { service, gameId: `rb-${startId}` };
}

describe('raid boss through the scheduler', () => {
  test('when the chat beats the boss, then the announcements come in order (50% HP, 10% HP, victory with the top damage), each once', async () => {
    const channel = aChannel();
    const { service, gameId } = await scriptedBoss(channel, 10);

    for (const round of [
      [alice, bob, carol],
      [alice, bob, carol],
      [alice, bob, carol], // alice's hit takes the boss to 2,200: 50%
      [alice, bob, carol], // carol's hit takes it to 200: 10%
      [alice], // the final blow: 200 damage
    ]) {
      for (const viewer of round) await harness.sayAndWait(channel, viewer, '$attack');
      harness.clock.advance(5000);
      await service.tick();
    }
    harness.clock.advance(10 * 60_000);
    await service.tick();

    expect(announcements(channel)).toEqual([
      [`game:${gameId}:hp-50`, '💥 Mother of Ash is down to half health: 2,200/5,000 HP left!'],
      [`game:${gameId}:hp-10`, '🩸 Mother of Ash is almost beaten: only 200/5,000 HP left!'],
      [
        `game:${gameId}:end`,
        '🏆 Mother of Ash has been defeated! Top damage: 🥇 alice (1,800) 🥈 bob (1,600) 🥉 carol (1,600)',
      ],
    ]);
    const kinds = harness.events(channel).map((event) => event.kind);
    expect(kinds).toEqual([
      GameEventKind.STARTED,
      ...Array<GameEventKind>(7).fill(GameEventKind.ATTACKED),
      GameEventKind.ANNOUNCED,
      ...Array<GameEventKind>(5).fill(GameEventKind.ATTACKED),
      GameEventKind.ANNOUNCED,
      GameEventKind.ATTACKED,
      GameEventKind.ENDED,
    ]);
    const ended = harness.events(channel).at(-1);
    expect(ended).toMatchObject({
      gameId,
      ownerUserId: channel.ownerUserId,
      broadcasterUserId: channel.broadcasterUserId,
      eventId: `${gameId}:end`,
      leaderboard: [
        expect.objectContaining({ rank: 1, username: 'alice', value: 1800 }),
        expect.objectContaining({ rank: 2, username: 'bob', value: 1600 }),
        expect.objectContaining({ rank: 3, username: 'carol', value: 1600 }),
      ],
      details: { case: 'raidBoss', value: expect.objectContaining({ hp: 0, maxHp: 5000, isDefeated: true }) },
    });
    expect(new Set(keysOf(channel)).size).toBe(keysOf(channel).length);
  });

  test('when time runs out, then half time, the final minute and the escape with the top damage are announced in order, each once', async () => {
    const channel = aChannel();
    const { service, gameId } = await scriptedBoss(channel, 3);
    harness.clock.advance(30_000);
    await harness.sayAndWait(channel, bob, '$attack fire'); // Fireball: 350

    for (const step of [59_000, 1000, 1000, 28_000, 1000, 59_000, 1000, 60_000]) {
      harness.clock.advance(step);
      await service.tick();
    }

    expect(announcements(channel)).toEqual([
      [
        `game:${gameId}:half-time`,
        '⏳ Half time! Mother of Ash has 4,650/5,000 HP left and 1 minute 30 seconds to go. Keep attacking with $attack!',
      ],
      [`game:${gameId}:final-minute`, '⚠️ Final minute! Mother of Ash still has 4,650/5,000 HP. Attack now!'],
      [`game:${gameId}:end`, '💨 Time is up! Mother of Ash escaped with 4,650/5,000 HP. Top damage: 🥇 bob (350)'],
    ]);
    const announced = harness.lines(channel).filter((line) => line.replyToMessageId === undefined);
    for (const line of announced) {
      expect(line).toMatchObject({ ownerUserId: channel.ownerUserId, origin: ChatOrigin.GAME });
      expect(line.sourceReceivedAt).toBeUndefined();
      // the line's own time: when the game made it (kick-link ages it from there)
      expect(line.sourceSentAt).toEqual(line.occurredAt);
      expect(line.sourceSentAt).toBeDefined();
    }
    expect(harness.events(channel).map((event) => event.kind)).toEqual([
      GameEventKind.STARTED,
      GameEventKind.ATTACKED,
      GameEventKind.ANNOUNCED,
      GameEventKind.ANNOUNCED,
      GameEventKind.ENDED,
    ]);
    expect(harness.events(channel).at(-1)?.details).toEqual({
      case: 'raidBoss',
      value: expect.objectContaining({ hp: 4650, isDefeated: false }),
    });
  });
});

describe('guess my balance through the scheduler', () => {
  test('when time runs out, then guessing closes with one reminder to the broadcaster, and the reveal ranks the guesses', async () => {
    const channel = aChannel();
    const service = await harness.startService();
    await harness.startBot(channel);
    const startId = await harness.sayAndWait(channel, streamerOf(channel), '$game gmb 1');
    await harness.sayAndWait(channel, alice, '$gmb 1,000');
    await harness.sayAndWait(channel, bob, '$gmb $1,200.50');

    harness.clock.advance(60_000);
    await service.tick();
    await service.tick();
    await harness.sayAndWait(channel, carol, '$gmb 1100');
    const revealId = await harness.sayAndWait(channel, streamerOf(channel), '$gmb end 1,100.25');

    const content = (key: string) => harness.lines(channel).find((line) => line.idempotencyKey === key)?.content;
    expect(announcements(channel)).toEqual([
      [
        `game:gmb-${startId}:closed`,
        '⌛ Guessing is closed with 2 guesses! @streamer, reveal your balance with $gmb end <balance>.',
      ],
    ]);
    expect(harness.lines(channel).at(-2)?.content).toBe('Guessing is closed. Wait for the reveal!');
    expect(content(`game:${revealId}`)).toBe('💰 The balance was $1,100.25! 🥇 alice ($1,000) 🥈 bob ($1,200.50)');
    expect(harness.events(channel).map((event) => event.kind)).toEqual([
      GameEventKind.STARTED,
      GameEventKind.GUESSED,
      GameEventKind.GUESSED,
      GameEventKind.ANNOUNCED,
      GameEventKind.ENDED,
    ]);
  });
});

describe('resuming after a restart', () => {
  test('when a new instance takes over mid-game from the same store, then the next announcement comes exactly once and none is repeated', async () => {
    const channel = aChannel();
    const { service: first, gameId } = await scriptedBoss(channel, 10);
    harness.clock.advance(5 * 60_000);
    await first.tick();
    expect(keysOf(channel)).toContain(`game:${gameId}:half-time`);
    await first.stop();

    const second = await harness.startService();
    harness.clock.advance(30_000);
    await second.tick();
    harness.clock.advance(3.5 * 60_000); // 20:09:00
    await second.tick();
    await second.tick();
    harness.clock.advance(60_000);
    await second.tick();

    expect(announcements(channel).map(([key]) => key)).toEqual([
      `game:${gameId}:half-time`,
      `game:${gameId}:final-minute`,
      `game:${gameId}:end`,
    ]);
  });

  test('when the process dies after the state was written but before the announcement went out, then the next instance relays it once', async () => {
    const channel = aChannel();
    let isBroken = true;
    const breakAnnouncements = (bus: KickstandBus): KickstandBus => ({
      ...bus,
      publish: async (topic, key, message) => {
        if (isBroken && topic === 'chat.send') throw new Error('the bus went away');
        await bus.publish(topic, key, message);
      },
    });
    const first = await harness.startService({ random: scriptedRandom([5000], highest) });
    await harness.startBot(channel);
    const startId = await harness.sayAndWait(channel, streamerOf(channel), '$game raidboss 10');
    await first.stop();
    const broken = await harness.startService({}, breakAnnouncements);
    harness.clock.advance(5 * 60_000);
    await broken.tick(); // writes the half-time into the document, then fails to publish it
    const repo = createGamesRepository(harness.platform.store);
    expect((await repo.findChannel(channel.broadcasterUserId))?.outbox.map((entry) => entry.id)).toEqual([
      `game:rb-${startId}:half-time`,
      `rb-${startId}:half-time`,
    ]);
    await broken.stop();

    isBroken = false;
    const next = await harness.startService();
    await next.tick();
    await next.tick();

    expect(announcements(channel).map(([key]) => key)).toEqual([`game:rb-${startId}:half-time`]);
    expect(harness.events(channel).filter((event) => event.kind === GameEventKind.ANNOUNCED)).toHaveLength(1);
    expect((await repo.findChannel(channel.broadcasterUserId))?.outbox).toEqual([]);
  });
});

describe('several instances', () => {
  test('when two instances tick the same due game at once, then only the lease holder announces, once', async () => {
    const channel = aChannel();
    const { service: first, gameId } = await scriptedBoss(channel, 10);
    const second = await harness.startService({ instanceId: 'games-2' });
    harness.clock.advance(5 * 60_000);

    await Promise.all([first.tick(), second.tick(), first.tick(), second.tick()]);

    expect(announcements(channel).map(([key]) => key)).toEqual([`game:${gameId}:half-time`]);
    const repo = createGamesRepository(harness.platform.store);
    const holder = (await repo.findChannel(channel.broadcasterUserId))?.leaseOwner;
    expect(['games-1', 'games-2']).toContain(holder);

    // the holder goes away; once its lease has run out, the other one carries on
    await (holder === 'games-1' ? first : second).stop();
    const survivor = holder === 'games-1' ? second : first;
    harness.clock.advance(4 * 60_000);
    await survivor.tick();
    expect(announcements(channel).map(([key]) => key)).toEqual([
      `game:${gameId}:half-time`,
      `game:${gameId}:final-minute`,
    ]);
    expect((await repo.findChannel(channel.broadcasterUserId))?.leaseOwner).toBe(
      holder === 'games-1' ? 'games-2' : 'games-1',
    );
  });
});

describe('createGamesService(deps) with the defaults', () => {
  test('when started without options, then its own interval ticks due games, and stop ends it', async () => {
    const channel = aChannel();
    const service = createGamesService({ ...harness.platform, bus: harness.recorded.bus });
    await service.start();
    try {
      await harness.startBot(channel);
      await harness.sayAndWait(channel, streamerOf(channel), '$game gmb 1');
      harness.clock.advance(60_000);
      await eventually(() => expect(announcements(channel)).toHaveLength(1), 5000);
    } finally {
      await service.stop();
    }
  });
});
