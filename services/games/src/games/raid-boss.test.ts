import { at, highest, scriptedRandom, theBroadcaster, viewer } from '../testing/test-support';
import type { ChatLineEntry, OutboxEntry } from './outbox';
import {
  advanceRaidBoss,
  attack,
  pickWeapon,
  raidBossNextDueMs,
  raidBossSchedule,
  startRaidBoss,
  topDamage,
  weaponArsenal,
  type RaidBossState,
} from './raid-boss';

const lines = (outbox: OutboxEntry[]) =>
  outbox.filter((entry): entry is ChatLineEntry => entry.type === 'chat').map((entry) => entry.content);

/** HP 5,000, boss "Mother of Ash", weapons Lightning (20-400), Fireball, Spear, Hammer; every hit the highest. */
function aBoss(durationMinutes = 10): { game: RaidBossState; random: ReturnType<typeof scriptedRandom> } {
  const random = scriptedRandom([5000], highest);
  const game = startRaidBoss({
    id: 'rb-1',
    chat: theBroadcaster(),
    durationMinutes,
    nowMs: at('20:00:00'),
    random,
  }).state;
  return { game, random };
}

describe('startRaidBoss', () => {
  test('when a raid boss starts, then HP, boss and 4 different weapons come from the random source and are announced', () => {
    const random = scriptedRandom([12345, 1, 0, 0, 0, 0]);
    const started = startRaidBoss({
      id: 'rb-1',
      chat: theBroadcaster(),
      durationMinutes: 10,
      nowMs: at('20:00:00'),
      random,
    });
    expect(started.state).toMatchObject({
      boss: 'The Hollow King',
      maxHp: 12345,
      hp: 12345,
      endsAtMs: at('20:10:00'),
      weapons: weaponArsenal.slice(0, 4),
    });
    expect(lines(started.outbox)).toEqual([
      '⚔️ RAID BOSS! The Hollow King appears with 12,345 HP. Defeat it within 10 minutes! Weapons: Sword (100-200), Axe (120-240), Bow (80-220), Dagger (60-160). Attack with $attack <weapon> (every 5 seconds).',
    ]);
    expect(started.outbox[1]).toMatchObject({ type: 'game-event', kind: 'started', id: 'rb-1:started' });
  });

  test('when the HP is drawn, then it stays within 5,000 to 20,000', () => {
    const asked: Array<[number, number]> = [];
    startRaidBoss({
      id: 'rb-1',
      chat: theBroadcaster(),
      durationMinutes: 5,
      nowMs: 0,
      random: { intBetween: (min, max) => (asked.push([min, max]), min) },
    });
    expect(asked[0]).toEqual([5000, 20000]);
  });
});

describe('raidBossSchedule', () => {
  test('when the game lasts 10 minutes, then half time is at 5:00, the final minute at 9:00 and the end at 10:00', () => {
    expect(raidBossSchedule(0, 10)).toEqual([
      { name: 'half-time', atMs: 300_000 },
      { name: 'final-minute', atMs: 540_000 },
      { name: 'end', atMs: 600_000 },
    ]);
  });

  test('when the game lasts 1 or 2 minutes, then there is no separate final-minute announcement', () => {
    expect(raidBossSchedule(0, 1).map((item) => item.name)).toEqual(['half-time', 'end']);
    expect(raidBossSchedule(0, 2).map((item) => item.name)).toEqual(['half-time', 'end']);
    expect(raidBossSchedule(0, 3).map((item) => item.name)).toEqual(['half-time', 'final-minute', 'end']);
  });
});

describe('pickWeapon', () => {
  const offered = weaponArsenal.slice(4, 8); // Hammer, Spear, Fireball, Lightning
  test('when a weapon is named in any case, or by a unique start, then it is used', () => {
    expect(pickWeapon(offered, 'SPEAR').name).toBe('Spear');
    expect(pickWeapon(offered, 'fire').name).toBe('Fireball');
  });
  test('when no weapon, an unknown one or one not offered is named, then the first offered weapon is used', () => {
    expect(pickWeapon(offered, null).name).toBe('Hammer');
    expect(pickWeapon(offered, 'banana').name).toBe('Hammer');
    expect(pickWeapon(offered, 'sword').name).toBe('Hammer');
  });
});

describe('attack', () => {
  test('when a viewer attacks, then the damage is drawn from the weapon range and the reply shows the HP left', () => {
    const { game, random } = aBoss();
    random.queue(77);
    const hit = attack(game, viewer('ann'), 'lightning', at('20:00:10'), random);
    expect(hit.state.hp).toBe(4923);
    expect(lines(hit.outbox)).toEqual(['ann hits Mother of Ash with Lightning for 77 damage! 4,923/5,000 HP left.']);
    expect(hit.outbox[1]).toMatchObject({
      type: 'game-event',
      kind: 'attacked',
      id: expect.stringMatching(/^rb-1:attack:m-\d+$/),
      raidBoss: { hp: 4923, maxHp: 5000, damage: 77, weapon: 'Lightning' },
    });
  });

  test('when a viewer attacks again within 5 s, then they are told the seconds left once per cooldown', () => {
    const { game, random } = aBoss();
    const first = attack(game, viewer('ann'), null, at('20:00:10'), random).state;
    const early = attack(first, viewer('ann'), null, at('20:00:13'), random);
    expect(lines(early.outbox)).toEqual(['Wait 2s before your next attack.']);
    expect(early.state.hp).toBe(first.hp);
    const again = attack(early.state, viewer('ann'), null, at('20:00:14'), random);
    expect(again.outbox).toEqual([]);
    const allowed = attack(again.state, viewer('ann'), null, at('20:00:15'), random);
    expect(allowed.state.hp).toBe(first.hp - 400);
    const earlyAgain = attack(allowed.state, viewer('ann'), null, at('20:00:16.500'), random);
    expect(lines(earlyAgain.outbox)).toEqual(['Wait 4s before your next attack.']);
  });

  test('when attacks are played late, then the cooldown is judged by when they were sent', () => {
    const { game, random } = aBoss();
    const sent = (time: string) => ({ ...viewer('ann'), sentAtMs: at(time) });
    const first = attack(game, sent('20:00:10'), null, at('20:01:00'), random);
    expect(first.state.attackers).toEqual([
      expect.objectContaining({ firstHitAtMs: at('20:00:10'), lastAttackAtMs: at('20:00:10') }),
    ]);
    const early = attack(first.state, sent('20:00:12'), null, at('20:01:00'), random);
    expect(lines(early.outbox)).toEqual(['Wait 3s before your next attack.']);
    const onTime = attack(early.state, sent('20:00:15'), null, at('20:01:00'), random);
    expect(onTime.state.hp).toBe(first.state.hp - 400);
  });

  test('when an attack sent before the last one is played after it, then it waits the whole cooldown', () => {
    const { game, random } = aBoss();
    const sent = (time: string) => ({ ...viewer('ann'), sentAtMs: at(time) });
    const last = attack(game, sent('20:00:30'), null, at('20:00:31'), random);
    const older = attack(last.state, sent('20:00:10'), null, at('20:00:31'), random);
    expect(lines(older.outbox)).toEqual(['Wait 5s before your next attack.']);
    expect(older.state.hp).toBe(last.state.hp);
  });

  test('when hits take the boss to 50% and 10% HP, then each is announced once, and the killing blow ends the game', () => {
    let { game } = aBoss();
    const { random } = aBoss();
    const said: string[] = [];
    for (let hit = 1; hit <= 13; hit += 1) {
      const step = attack(game, viewer(`v${hit}`), null, at('20:00:10'), random);
      game = step.state;
      said.push(
        ...step.outbox.filter((entry) => entry.type === 'chat' && !entry.replyToMessageId).map((entry) => entry.id),
      );
    }
    expect(said).toEqual(['game:rb-1:hp-50', 'game:rb-1:hp-10', 'game:rb-1:end']);
    expect(game).toMatchObject({ phase: 'ended', outcome: 'defeated', hp: 0 });
    expect(game.attackers.at(-1)?.damage).toBe(200);
  });
});

describe('advanceRaidBoss', () => {
  test('when time passes, then half time and the final minute are announced once each, and at the end the boss escapes', () => {
    let { game } = aBoss(10);
    const said: string[] = [];
    for (const time of ['20:04:59', '20:05:00', '20:05:01', '20:09:00', '20:09:30', '20:10:00', '20:11:00']) {
      const step = advanceRaidBoss(game, at(time));
      game = step.state;
      said.push(...lines(step.outbox));
    }
    expect(said).toEqual([
      '⏳ Half time! Mother of Ash has 5,000/5,000 HP left and 5 minutes to go. Keep attacking with $attack!',
      '⚠️ Final minute! Mother of Ash still has 5,000/5,000 HP. Attack now!',
      '💨 Time is up! Mother of Ash escaped with 5,000/5,000 HP. Nobody attacked.',
    ]);
    expect(raidBossNextDueMs(game)).toBeNull();
  });

  test('when the service was down through the end, then only the end is announced', () => {
    const { game } = aBoss(10);
    const step = advanceRaidBoss(game, at('20:12:00'));
    expect(step.outbox.filter((entry) => entry.type === 'chat').map((entry) => entry.id)).toEqual(['game:rb-1:end']);
  });

  test('when a tick comes late, then every announcement due meanwhile is made, in order', () => {
    const { game } = aBoss(10);
    const step = advanceRaidBoss(game, at('20:09:10'));
    expect(step.outbox.filter((entry) => entry.type === 'chat').map((entry) => entry.id)).toEqual([
      'game:rb-1:half-time',
      'game:rb-1:final-minute',
    ]);
    expect(raidBossNextDueMs(step.state)).toBe(at('20:10:00'));
  });
});

describe('topDamage', () => {
  test('when damage ties, then whoever hit first ranks higher; only the top 5 are kept', () => {
    const { game } = aBoss();
    const attackers = [
      ['a', 100, 5],
      ['b', 300, 4],
      ['c', 300, 3],
      ['d', 50, 2],
      ['e', 70, 1],
      ['f', 10, 0],
    ].map(([username, damage, first]) => ({
      userId: `id-${username}`,
      username: String(username),
      damage: Number(damage),
      firstHitAtMs: Number(first),
      lastAttackAtMs: 0,
      cooldownNoticeForMs: null,
    }));
    expect(topDamage({ ...game, attackers })).toEqual([
      { rank: 1, username: 'c', value: 300 },
      { rank: 2, username: 'b', value: 300 },
      { rank: 3, username: 'a', value: 100 },
      { rank: 4, username: 'e', value: 70 },
      { rank: 5, username: 'd', value: 50 },
    ]);
  });
});
