import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Preloaded into a process the bench measures (`node --require loop-delay-probe.js`, what
 * `bench:sandbox --loop-delay` does): its event-loop delay (p50/p95/p99/max, ms) and how often a
 * 10 ms timer came more than 50 ms late, written as JSON to LOOP_DELAY_FILE when it is told to stop
 * (SIGTERM). A stall of the measured process shows here whatever caused it.
 */
const file = process.env.LOOP_DELAY_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let gapsOver50Ms = 0;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 60) gapsOver50Ms += 1;
    last = now;
  }, 10).unref();
  process.prependListener('SIGTERM', () => {
    const ms = (nanoseconds: number) => Number((nanoseconds / 1e6).toFixed(1));
    const delay = {
      p50: ms(histogram.percentile(50)),
      p95: ms(histogram.percentile(95)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
    };
    writeFileSync(file, JSON.stringify({ eventLoopDelayMs: delay, gapsOver50Ms }));
  });
}
