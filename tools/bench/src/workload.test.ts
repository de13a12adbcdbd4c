import { compactSchedule, planPhase, scheduleFlags, type BenchChannel } from './workload';

const channels: BenchChannel[] = Array.from({ length: 50 }, (_, i) => ({
  userId: `user-${i}`,
  username: `bench_${i}`,
  kickUserId: 10_000 + i,
  kickUsername: `bench_kick_${i}`,
  subscriptionId: `sub-${i}`,
  commands: ['c0', 'c1', 'c2', 'c3'],
}));

describe('planPhase', () => {
  const plan = planPhase({ channels, rate: 1000, durationSeconds: 10, warmupSeconds: 2, commandShare: 0.2, seed: 7 });

  test('when a phase is planned, then messages are evenly spaced at the rate, the first ones marked warm-up', () => {
    expect(plan).toHaveLength(12_000);
    expect(plan[0]?.atMs).toBe(0);
    expect(plan[1]?.atMs).toBe(1);
    expect(plan[11_999]?.atMs).toBe(11_999);
    expect(plan.filter((m) => m.isWarmup)).toHaveLength(2000);
    expect(plan[1999]?.isWarmup).toBe(true);
    expect(plan[2000]?.isWarmup).toBe(false);
  });

  test('when the command share is 20 %, then about a fifth are commands, all with a $ and a known name', () => {
    const commands = plan.filter((m) => m.isCommand);
    expect(commands.length / plan.length).toBeGreaterThan(0.18);
    expect(commands.length / plan.length).toBeLessThan(0.22);
    expect(commands.every((m) => /^\$c[0-3]( @viewer_\d+)?$/.test(m.content))).toBe(true);
    expect(plan.filter((m) => !m.isCommand).every((m) => !m.content.startsWith('$') && !m.expectsReply)).toBe(true);
  });

  test('when a command is expected to be answered, then the same command in that channel was not answered in the guard before', () => {
    const lastAnswered = new Map<string, number>();
    for (const message of plan) {
      if (!message.expectsReply) continue;
      const key = `${message.channel}:${message.content.split(' ')[0]}`;
      const previous = lastAnswered.get(key);
      if (previous !== undefined) expect(message.atMs - previous).toBeGreaterThanOrEqual(1500);
      lastAnswered.set(key, message.atMs);
    }
    // 200 commands/s over 50 channels with 4 commands each: a few fall inside the guard
    const ignored = plan.filter((m) => m.isCommand && !m.expectsReply).length;
    expect(ignored).toBeGreaterThan(0);
    expect(ignored).toBeLessThan(plan.filter((m) => m.isCommand).length / 2);
  });

  test('when the same seed is used, then the plan is the same', () => {
    const again = planPhase({
      channels,
      rate: 1000,
      durationSeconds: 10,
      warmupSeconds: 2,
      commandShare: 0.2,
      seed: 7,
    });
    expect(again).toEqual(plan);
  });
});

describe('compactSchedule', () => {
  test('when a plan is compacted, then each message keeps its time, channel and flags, and the first measured one is known', () => {
    const plan = planPhase({ channels, rate: 100, durationSeconds: 3, warmupSeconds: 1, commandShare: 0.5, seed: 3 });

    const schedule = compactSchedule(plan);

    expect(schedule.count).toBe(400);
    expect(schedule.firstMeasured).toBe(100);
    plan.forEach((message, i) => {
      expect(schedule.atMs[i]).toBe(message.atMs);
      expect(schedule.channel[i]).toBe(message.channel);
      expect(((schedule.flags[i] as number) & scheduleFlags.isCommand) !== 0).toBe(message.isCommand);
      expect(((schedule.flags[i] as number) & scheduleFlags.expectsReply) !== 0).toBe(message.expectsReply);
      expect(((schedule.flags[i] as number) & scheduleFlags.isWarmup) !== 0).toBe(message.isWarmup);
    });
  });

  test('when every message is warm-up, then none is measured', () => {
    const plan = planPhase({ channels, rate: 10, durationSeconds: 0, warmupSeconds: 1, commandShare: 0, seed: 3 });
    expect(compactSchedule(plan).firstMeasured).toBe(10);
  });
});
