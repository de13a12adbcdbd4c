/**
 * What realtime's stream analytics keeps in memory and what its writes cost on the embedded store
 * (docs/performance.md, "Stream analytics in memory"): `npm run bench:analytics-memory -- [channels]
 * [names per day] [minutes] [lines per channel-minute]`.
 *
 * 1. Each of `channels` (default 1,000) gets a day of `names per day` (default 5,000, the cap)
 *    chatters: its minutes (500 names each, the minute's cap) and its day document (counts only; a
 *    day's chatters are its minutes'): the store's heap and array buffers per channel-day.
 * 2. The 7 and 30 day reports' read of today (`repo.daysBetween`, 100 owners: the day's chatters
 *    summed from its minutes, read an hour at a time): CPU a read.
 * 3. One flush's day write per channel (`addDay` of an hour's counts): CPU per write (the day's
 *    read, the embedded store's copy of the document), and the event loop's longest delay meanwhile
 *    (one write's longest stretch on the thread).
 * 4. `minutes` (default 10) minutes of chat, `lines` (default 60) a channel-minute from 10,000
 *    viewers picked at random (the bench's workload), from 00:10 (1,430 make a full day): CPU per
 *    minute write, heap per minute document (over all the minutes and over the later half alone)
 *    and per active channel-hour.
 * 5. The last-stream report's read of those minutes (`repo.minutesBetween`) for 100 owners: CPU
 *    per read and per minute read.
 * 6. The day documents once their day ended (`repo.closeDays`, run by the timer's flush an hour
 *    after, its chatters summed from all its minutes): the heap the move frees, CPU per day moved,
 *    and the 7 and 30 day reports' read of a day (`repo.daysBetween`, 100 owners) from the
 *    collection before and from the log after.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createSilentLogger } from '@kickstand/platform/log';
import { createEmbeddedStore } from '@kickstand/platform/store';
import { createFakeClock } from '@kickstand/platform/testing';
import { createAnalyticsRepository } from '@kickstand/realtime';
import { heapAfterGc } from './heap';
import { seededRandom } from '@kickstand/platform/random';

const channels = Number(process.argv[2] ?? 1000);
const namesPerDay = Number(process.argv[3] ?? 5000);
const minutes = Number(process.argv[4] ?? 10);
const linesPerMinute = Number(process.argv[5] ?? 60);
const viewers = 10_000;

const zero = { messages: 0, commands: 0, follows: 0, subscriptions: 0, giftedSubscriptions: 0, kicks: 0 };
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
/** The V8 heap and the typed arrays' memory outside it (the recent logs' indexes), after `gc()`. */
const retained = () => heapAfterGc() + process.memoryUsage().arrayBuffers;

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), 'analytics-memory-'));
  const day = new Date('2026-03-01T00:00:00Z');
  const clock = createFakeClock(new Date('2026-03-01T20:00:00Z'));
  const log = createSilentLogger();
  const store = await createEmbeddedStore({ dir, clock, log, sweepIntervalMs: 3_600_000 });
  const repo = createAnalyticsRepository(store);
  await repo.createIndexes();
  const random = seededRandom(22);
  const owner = (channel: number) => `owner-${channel}`;
  const viewer = () => `viewer_${Math.floor(random() * viewers)}`;
  /** `count` distinct names of the 10,000 viewers (all of them, numbered on, beyond 10,000). */
  const distinctNames = (count: number): string[] => {
    const names = new Set<string>();
    while (names.size < Math.min(count, viewers)) names.add(viewer());
    for (let extra = viewers; names.size < count; extra += 1) names.add(`viewer_${extra}`);
    return [...names];
  };
  const dayDelta = (userId: string, messages: number) => ({
    userId,
    day,
    hours: new Map([['20', { ...zero, messages }]]),
    commands: new Map([['dice', 1]]),
  });
  const perMinute = 500;
  const dayAfter = new Date(day.getTime() + 86_400_000);
  const readers = Math.min(channels, 100);
  /** CPU a `daysBetween` of the day, for `readers` owners. */
  const readDays = async () => {
    const started = process.cpuUsage();
    for (let channel = 0; channel < readers; channel += 1) await repo.daysBetween(owner(channel), day, dayAfter);
    return (cpuMs(started) * 1000) / readers;
  };

  // 1. the days: their minutes (the chatters) and their documents (the counts)
  const heapBefore = retained();
  for (let channel = 0; channel < channels; channel += 1) {
    const names = distinctNames(namesPerDay);
    for (let first = 0; first < names.length; first += perMinute) {
      const chatters = new Map(names.slice(first, first + perMinute).map((name) => [name, 1]));
      const minute = new Date(day.getTime() + (first / perMinute) * 60_000);
      const counts = { ...zero, messages: chatters.size };
      await repo.addMinute({ userId: owner(channel), minute, counts, chatters, unnamedLines: 0, commands: new Map() });
    }
    await repo.addDay(dayDelta(owner(channel), names.length));
  }
  const heapDays = retained();
  console.log(
    `${channels} days of ${namesPerDay} names (${Math.ceil(namesPerDay / perMinute)} minutes and a day document each): ` +
      `store heap and array buffers +${mb(heapDays - heapBefore)} MB, ` +
      `${((heapDays - heapBefore) / channels / 1000).toFixed(1)} kB a day`,
  );

  // 2. the 7 and 30 day reports' read of today: its chatters summed from its minutes
  console.log(`daysBetween of today (${readers} owners): ${(await readDays()).toFixed(0)} µs CPU a read`);

  // 3. one flush's day write per channel
  // the loop's longest delay meanwhile: how long one write holds the owner thread at a stretch
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let cpu = process.cpuUsage();
  for (let channel = 0; channel < channels; channel += 1) {
    await repo.addDay(dayDelta(owner(channel), 60));
    await new Promise((resolve) => setImmediate(resolve));
  }
  const dayWriteMs = cpuMs(cpu);
  // a block still under way when the writes resolve is recorded at the monitor's next sample
  await new Promise((resolve) => setTimeout(resolve, 20));
  delay.disable();
  const dayDoc = await store.collection('analytics-days').findOne({ _id: `${owner(0)}|2026-03-01` });
  console.log(
    `addDay of an hour's counts: ${((dayWriteMs * 1000) / channels).toFixed(0)} µs CPU a write, ` +
      `~${(JSON.stringify(dayDoc).length / 1000).toFixed(1)} kB appended to the datafile; ` +
      `event loop delay max ${(delay.max / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms`,
  );

  // 4. the minute documents of `minutes` minutes of chat
  const heapBeforeMinutes = retained();
  let heapHalfway = heapBeforeMinutes;
  const halfway = Math.floor(minutes / 2);
  let minuteWriteMs = 0;
  // from 00:10, after the days' own minutes: up to 1,430 minutes stay in the day, so that step 6
  // reads (and moves) a day as long as the minutes asked for
  const minuteAt = (minute: number) => new Date(day.getTime() + (10 + minute) * 60_000);
  for (let minute = 0; minute < minutes; minute += 1) {
    if (minute === halfway) heapHalfway = retained();
    const deltas = [];
    for (let channel = 0; channel < channels; channel += 1) {
      const chatters = new Map<string, number>();
      for (let line = 0; line < linesPerMinute; line += 1) {
        const name = viewer();
        chatters.set(name, (chatters.get(name) ?? 0) + 1);
      }
      deltas.push({
        userId: owner(channel),
        minute: minuteAt(minute),
        counts: { ...zero, messages: linesPerMinute },
        chatters,
        unnamedLines: 0,
        commands: new Map([['dice', 2]]),
      });
    }
    cpu = process.cpuUsage();
    for (const delta of deltas) await repo.addMinute(delta);
    minuteWriteMs += cpuMs(cpu);
  }
  const heapMinutes = retained();
  const [minuteDoc] = await repo.minutesBetween(owner(0), minuteAt(0), minuteAt(1));
  const perMinuteDoc = (heapMinutes - heapBeforeMinutes) / (channels * minutes);
  // the later half alone: what one more minute document costs once each owner's structures exist
  const perLaterDoc = (heapMinutes - heapHalfway) / (channels * (minutes - halfway));
  console.log(
    `${channels * minutes} minute documents (${linesPerMinute} lines): +${mb(heapMinutes - heapBeforeMinutes)} MB, ` +
      `${(perMinuteDoc / 1000).toFixed(2)} kB a document (the last ${minutes - halfway} minutes: ` +
      `${(perLaterDoc / 1000).toFixed(2)} kB), ${((perMinuteDoc * 60) / 1000).toFixed(0)} kB an active channel-hour; ` +
      `insert ${((minuteWriteMs * 1000) / (channels * minutes)).toFixed(0)} µs CPU a minute, ` +
      `~${((minuteDoc ? JSON.stringify(minuteDoc).length : 0) / 1000).toFixed(1)} kB in the datafile`,
  );

  // 5. the last-stream report's read: every minute of an owner, for 100 owners
  cpu = process.cpuUsage();
  let read = 0;
  for (let channel = 0; channel < readers; channel += 1) {
    read += (await repo.minutesBetween(owner(channel), minuteAt(0), minuteAt(minutes))).length;
  }
  const minutesReadMs = cpuMs(cpu);
  console.log(
    `minutesBetween of ${minutes} minutes (${readers} owners, ${read} documents): ` +
      `${((minutesReadMs * 1000) / readers).toFixed(0)} µs CPU a read, ${((minutesReadMs * 1000) / read).toFixed(1)} µs a minute`,
  );

  // 6. the days once they ended: out of the collection, into the past days' log
  const readBeforeUs = await readDays();
  const heapBeforeMove = retained();
  cpu = process.cpuUsage();
  let moved = 0;
  for (let batch = -1; batch !== 0; moved += batch) batch = await repo.closeDays(dayAfter, 4);
  const moveMs = cpuMs(cpu);
  const heapAfterMove = retained();
  const readAfterUs = await readDays();
  console.log(
    `closeDays of ${moved} ended days of ${namesPerDay} names: heap and array buffers ${mb(heapBeforeMove)} → ` +
      `${mb(heapAfterMove)} MB (${((heapBeforeMove - heapAfterMove) / moved / 1000).toFixed(1)} kB a day freed), ` +
      `${((moveMs * 1000) / moved).toFixed(0)} µs CPU a day moved; daysBetween of a day ${readBeforeUs.toFixed(0)} µs ` +
      `CPU from the collection, ${readAfterUs.toFixed(0)} µs from the log`,
  );

  await store.close();
  await rm(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
