import { createTestPlatform, createFakeClock, type TestPlatform } from '@kickstand/platform/testing';
import { appliedLinesKept, createCountersRepository, type CountersRepository } from './counters';

const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
let platform: TestPlatform;
let counters: CountersRepository;

beforeEach(async () => {
  platform = await createTestPlatform('bot-runner', { clock });
  counters = createCountersRepository(platform.store);
});

afterEach(async () => {
  await platform.close();
});

const apply = (messageId: string, uses: Array<{ name: string; delta: number }>) =>
  counters.apply('u1', messageId, uses, clock.now());

describe('named counters', () => {
  test('when a line adds to a counter never set, then it starts from 0', async () => {
    expect(await apply('m1', [{ name: 'deaths', delta: 1 }])).toEqual(new Map([['deaths', 1]]));
  });

  test('when the same line is applied again (a redelivery), then the counter changes once', async () => {
    await apply('m1', [{ name: 'deaths', delta: 1 }]);

    const again = await apply('m1', [{ name: 'deaths', delta: 1 }]);

    expect(again).toEqual(new Map([['deaths', 1]]));
    expect((await counters.get('u1', 'deaths'))?.value).toBe(1);
  });

  test('when many lines change it at once, then none is lost', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => apply(`m${i}`, [{ name: 'deaths', delta: 1 }])));

    expect((await counters.get('u1', 'deaths'))?.value).toBe(20);
  });

  test('when a response only reads a counter, then its value is returned and nothing is written', async () => {
    await apply('m1', [{ name: 'wins', delta: 3 }]);

    expect(
      await apply('m2', [
        { name: 'wins', delta: 0 },
        { name: 'losses', delta: 0 },
      ]),
    ).toEqual(
      new Map([
        ['wins', 3],
        ['losses', 0],
      ]),
    );
    expect(await counters.get('u1', 'losses')).toBeNull();
  });

  test('when a decrement goes below zero, then the counter is negative', async () => {
    expect(await apply('m1', [{ name: 'hp', delta: -5 }])).toEqual(new Map([['hp', -5]]));
  });

  test('when more lines changed it than are remembered, then only the last ones are kept', async () => {
    for (let i = 0; i < appliedLinesKept + 5; i += 1) await apply(`m${i}`, [{ name: 'deaths', delta: 1 }]);

    const doc = await counters.get('u1', 'deaths');

    expect(doc?.lines).toHaveLength(appliedLinesKept);
    expect(doc?.lines[0]).toBe('m5');
  });

  test('when the dashboard sets, resets and removes a counter, then each is stored', async () => {
    await counters.set('u1', 'deaths', 42, clock.now());
    expect((await counters.list('u1')).map(({ name, value }) => [name, value])).toEqual([['deaths', 42]]);
    await apply('m1', [{ name: 'deaths', delta: 1 }]);
    expect((await counters.reset('u1', 'deaths', clock.now()))?.value).toBe(0);
    expect(await counters.remove('u1', 'deaths')).toBe(true);
    expect(await counters.remove('u1', 'deaths')).toBe(false);
    expect(await counters.reset('u1', 'deaths', clock.now())).toBeNull();
  });

  test('when two streamers use the same name, then their counters are separate', async () => {
    await counters.apply('u1', 'm1', [{ name: 'deaths', delta: 1 }], clock.now());
    await counters.apply('u2', 'm2', [{ name: 'deaths', delta: 5 }], clock.now());

    expect([(await counters.get('u1', 'deaths'))?.value, (await counters.get('u2', 'deaths'))?.value]).toEqual([1, 5]);
  });
});
