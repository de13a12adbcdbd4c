/**
 * How long realtime's stream analytics flush holds the event loop (docs/performance.md, "Periodic
 * stalls: the analytics flush"): `npm run bench:analytics-flush -- [channels] [lines per
 * channel-minute] [timed|report]`.
 *
 * 1,000 channels (default) chat for one minute, which is flushed unmeasured (so the day documents
 * exist, as in a running stream), then for two more minutes; the flush of those two minutes is
 * measured: its wall time, the process CPU it takes, and the event loop's longest delay
 * (`monitorEventLoopDelay`) while it runs, which is how long chat could be held up. `timed` (the
 * default) is the timer's flush of the minutes that are over, `report` the flush before a report.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createInProcessBus, kickstandTopics } from '@kickstand/platform/bus';
import { createSilentLogger } from '@kickstand/platform/log';
import { createEmbeddedStore } from '@kickstand/platform/store';
import { createFakeClock } from '@kickstand/platform/testing';
import { timestampFromDate } from '@kickstand/proto';
import { createAnalyticsRepository, createStreamAnalytics } from '@kickstand/realtime';

const channels = Number(process.argv[2] ?? 1000);
const linesPerMinute = Number(process.argv[3] ?? 60);
const mode = process.argv[4] === 'report' ? 'report' : 'timed';
const viewers = 10_000;

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), 'analytics-flush-'));
  const start = new Date('2026-03-01T20:00:00Z');
  const clock = createFakeClock(start);
  const log = createSilentLogger();
  // no sweep while measuring: compacting the datafiles is measured on its own (docs/performance.md)
  const store = await createEmbeddedStore({ dir, clock, log, sweepIntervalMs: 3_600_000 });
  const repo = createAnalyticsRepository(store);
  await repo.createIndexes();
  const analytics = createStreamAnalytics({ repo, clock, log });
  const bus = createInProcessBus({ topics: kickstandTopics, log });
  let delivered = 0;
  await bus.subscribe('chat.received', 'bench', async (message) => {
    analytics.countChat(message);
    delivered += 1;
  });

  let sequence = 0;
  const chatMinutes = async (firstMinute: number, minutes: number) => {
    const expected = delivered + channels * linesPerMinute * minutes;
    for (let minute = firstMinute; minute < firstMinute + minutes; minute += 1) {
      for (let line = 0; line < linesPerMinute; line += 1) {
        const sentAt = new Date(start.getTime() + minute * 60_000 + Math.floor((line * 60_000) / linesPerMinute));
        for (let channel = 0; channel < channels; channel += 1) {
          sequence += 1;
          await bus.publish('chat.received', `c${channel}`, {
            eventId: `e${sequence}`,
            messageId: `m${sequence}`,
            ownerUserId: `owner-${channel}`,
            sender: { username: `viewer_${(sequence * 7919) % viewers}` },
            content: 'hi',
            createdAt: timestampFromDate(sentAt),
            receivedAt: timestampFromDate(sentAt),
          });
        }
      }
    }
    while (delivered < expected) await new Promise((resolve) => setTimeout(resolve, 10));
    clock.set(new Date(start.getTime() + (firstMinute + minutes) * 60_000 + 10_000));
  };

  await chatMinutes(0, 1);
  await analytics.flush();
  await chatMinutes(1, 2);

  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  await (mode === 'report' ? analytics.flush() : analytics.flushEnded());
  const wallMs = performance.now() - startedAt;
  const cpu = process.cpuUsage(cpuBefore);
  // a block still under way when the flush resolves is recorded at the monitor's next sample
  await new Promise((resolve) => setTimeout(resolve, 20));
  delay.disable();

  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.log(
    `${channels} channels × 2 minutes (${linesPerMinute} lines a channel-minute), ${mode}: flush ${wallMs.toFixed(0)} ms wall, ` +
      `${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU; event loop delay max ${ms(delay.max)} ms, ` +
      `p99 ${ms(delay.percentile(99))} ms, mean ${ms(delay.mean)} ms`,
  );
  await bus.stop();
  await store.close();
  await rm(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
