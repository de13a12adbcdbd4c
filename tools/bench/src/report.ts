import type { PhaseResult } from './chat-load';
import type { KickstandWindowMetrics } from './kickstand-metrics';
import type { StageSummary } from './prom-text';
import type { LatencySummary, TimelineBin } from './stats';

/** Targets of issue 10, for this 2-core machine with the generator on it. */
export interface TargetCheck {
  target: string;
  measured: string;
  isMet: boolean | null;
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 1)}` : '–');
const lat = (s: LatencySummary, withMax = false) =>
  `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.p99)}${withMax ? ` / ${ms(s.max)}` : ''}`;

export function formatPhase(result: PhaseResult): string {
  const lines: string[] = [];
  lines.push(
    `phase ${result.name}: ${result.mode}, ${result.channels} channels, ${Math.round(result.commandShare * 100)} % commands, target ${result.targetRate}/s for ${result.durationSeconds} s (+${result.warmupSeconds} s warm-up)`,
  );
  lines.push(`  achieved rate            ${result.achievedRate}/s (${result.sent} deliveries measured)`);
  lines.push(`  webhook ack p50/p95/p99  ${lat(result.ackLatencyMs)} ms (max ${ms(result.ackLatencyMs.max)})`);
  lines.push(
    `  reply p50/p95/p99/max    ${lat(result.replies.latencyMs, true)} ms (${result.replies.received}/${result.replies.expected} replies; ${result.replies.cooldownSkipped} commands inside the cooldown guard not counted, ${result.replies.answeredDespiteCooldown} of them answered)`,
  );
  if (result.dashboards) {
    const d = result.dashboards;
    lines.push(
      `  dashboards p50/p95/p99/max ${lat(d.latencyMs, true)} ms (${d.sockets} sockets, ${d.received}/${d.expected} chat-message events, ${d.disconnects} disconnects)`,
    );
  }
  const e = result.errors;
  const statuses = Object.entries(e.byStatus)
    .map(([status, count]) => `${count}×${status}`)
    .join(', ');
  lines.push(
    `  errors                   ${e.total}${e.total > 0 ? ` (${[statuses, e.transport ? `${e.transport} no answer: ${e.transportSamples.join('; ')}` : '', e.notSent ? `${e.notSent} not sent: more than 5 s behind after ${e.fellBehindAfter ?? 0} deliveries` : '', e.missingReplies ? `${e.missingReplies} replies missing` : '', e.duplicateReplies ? `${e.duplicateReplies} duplicate replies` : '', e.missingDashboardMessages ? `${e.missingDashboardMessages} dashboard events missing` : ''].filter(Boolean).join(', ')})` : ''}`,
  );
  lines.push(
    `  generator lag p99        ${ms(result.generatorLagMs.p99)} ms (signing took ${result.signingSeconds} s, before the phase)`,
  );
  lines.push(
    `  machine                  ${result.machine.busyCores} of ${result.machine.cores} cores busy; ${result.machine.otherCores} cores used by other processes`,
  );
  lines.push('  process                  cores   CPU ms/msg   peak RSS MB');
  for (const p of result.processes) {
    lines.push(
      `    ${p.name.padEnd(22)} ${p.cores.toFixed(2).padStart(5)}   ${p.cpuMsPerMessage.toFixed(3).padStart(10)}   ${p.peakRssMb.toFixed(0).padStart(11)}`,
    );
    lines.push(
      `      a message              ${p.systemCpuMsPerMessage.toFixed(3)} ms of it in the kernel; threads slept ${p.sleepsPerMessage.toFixed(2)}, preempted ${p.preemptionsPerMessage.toFixed(2)} times; system calls: ${p.readCallsPerMessage.toFixed(2)} reads, ${p.writeCallsPerMessage.toFixed(2)} writes`,
    );
    // the threads that took a share worth reading (Kickstand: owner, front door, V8's GC helpers)
    const threads = p.threads.filter((t) => t.isMain || t.cpuMsPerMessage >= 0.005);
    if (threads.length > 1) {
      lines.push(
        `      by thread (ms/msg)     ${threads.map((t) => `${t.isMain ? 'main ' : ''}${t.cpuMsPerMessage.toFixed(3)}`).join(', ')}`,
      );
    }
  }
  const logLine = Object.entries(result.logs)
    .map(
      ([name, count]) =>
        `${name} ${count.lines} lines${count.warnings + count.errors > 0 ? ` (${count.warnings} warn, ${count.errors} error: ${count.samples.join(' | ')})` : ''}`,
    )
    .join('; ');
  lines.push(`  log lines written        ${logLine}`);
  if (result.kickstand) lines.push(...formatKickstand(result.kickstand));
  else if (result.kickstandMetricsError)
    lines.push(`  kickstand /metrics       not read: ${result.kickstandMetricsError}`);
  if (result.timeline) {
    const bins = (list: readonly TimelineBin[]) => list.map((b) => ms(b.p99)).join(' ');
    lines.push(`  p99 per ${result.timeline.binSeconds} s (ms)        ack   ${bins(result.timeline.ack)}`);
    lines.push(`                           reply ${bins(result.timeline.reply)}`);
    if (result.timeline.dashboards)
      lines.push(`                           dashboards ${bins(result.timeline.dashboards)}`);
    const rss = result.timeline.kickstandRssMb.map((b) => b.max.toFixed(0)).join(' ');
    lines.push(`  max per ${result.timeline.binSeconds} s (MB)        kickstand RSS ${rss}`);
  }
  if (result.ownerAllocations) {
    const { kind, bytesPerMessage, top } = result.ownerAllocations;
    lines.push(
      kind === 'promoted'
        ? `  owner thread promoted    ${bytesPerMessage} bytes a message (--promoted-prof: outlived the young generation); most by:`
        : `  owner thread allocated   ${bytesPerMessage} bytes a message (--alloc-prof); most by:`,
    );
    for (const entry of top) {
      lines.push(
        `    ${String(entry.bytesPerMessage).padStart(7)} B  ${(entry.share * 100).toFixed(1).padStart(4)} %  ${entry.frame}`,
      );
    }
  }
  return lines.join('\n');
}

/** What each stage of the reply path means, in the order a reply goes through them. */
const stageNames: [string, string][] = [
  ['hand-off', 'door received → kick-link intake'],
  ['intake', 'intake → chat.received published'],
  ['bot-runner', 'bot-runner handler → chat.send'],
  ['to-posted', 'chat.send → Kick answered POST'],
  ['kick-queue', '  of which waiting to be written'],
  ['kick-post', '  of which POST /chat itself'],
  ['received-to-posted', 'all of Kickstand: received → posted'],
];

function formatKickstand(k: KickstandWindowMetrics): string[] {
  const row = (label: string, s: StageSummary | undefined) =>
    s
      ? `    ${label.padEnd(38)} ${ms(s.meanMs).padStart(6)} ${ms(s.p50Ms).padStart(6)} ${ms(s.p95Ms).padStart(6)} ${ms(s.p99Ms).padStart(6)}   (${s.count})`
      : `    ${label.padEnd(38)} –`;
  const lines = ["  Kickstand's own account (its /metrics over the window; ms, quantiles estimated from buckets)"];
  lines.push(
    `    ${'stage'.padEnd(38)} ${'mean'.padStart(6)} ${'p50'.padStart(6)} ${'p95'.padStart(6)} ${'p99'.padStart(6)}`,
  );
  lines.push(row('received → chat.send (command latency)', k.commandLatency));
  for (const [stage, label] of stageNames) lines.push(row(`${stage}: ${label}`, k.stages[stage]));
  const waits = Object.entries(k.busWait)
    .filter(([pair]) => /^chat\.(received|send|sent)\b/.test(pair))
    .sort((a, b) => b[1].meanMs - a[1].meanMs);
  for (const [pair, summary] of waits) lines.push(row(`bus wait ${pair}`, summary));
  const e = k.eventLoopDelayMs;
  lines.push(
    `    owner event-loop delay mean / p50 / p99 / max: ${ms(e.mean)} / ${ms(e.p50)} / ${ms(e.p99)} / ${ms(e.max)} ms; GC ${k.gc.seconds} s in ${k.gc.collections} collections`,
  );
  return lines;
}

export function checkTargets(
  mode: 'single' | 'distributed',
  phases: readonly PhaseResult[],
  peakRssMb: number,
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const byName = (name: string) => phases.find((p) => p.name === name);
  const latency = byName('latency');
  const throughput = byName('throughput');
  const dashboards = byName('dashboards');
  if (mode === 'single') {
    if (throughput) {
      checks.push({
        target: `≥ 3,000 msg/s sustained, ${throughput.channels} channels, no errors`,
        measured: `${throughput.achievedRate}/s at target ${throughput.targetRate}/s, ${throughput.errors.total} errors`,
        isMet: throughput.targetRate >= 3000 && throughput.achievedRate >= 0.98 * 3000 && throughput.errors.total === 0,
      });
    }
    if (latency) {
      checks.push({
        target: `at 1,000 msg/s: webhook ack p99 ≤ 5 ms`,
        measured: `${ms(latency.ackLatencyMs.p99)} ms at ${latency.achievedRate}/s`,
        isMet: latency.targetRate === 1000 && latency.ackLatencyMs.p99 <= 5,
      });
      checks.push({
        target: `at 1,000 msg/s: webhook-to-reply p99 ≤ 25 ms`,
        measured: `${ms(latency.replies.latencyMs.p99)} ms (max ${ms(latency.replies.latencyMs.max)})`,
        isMet: latency.targetRate === 1000 && latency.replies.latencyMs.p99 <= 25 && latency.errors.total === 0,
      });
    }
    checks.push({
      target: 'whole process peak memory ≤ 300 MB',
      measured: `${peakRssMb.toFixed(0)} MB (VmHWM of the kickstand process)`,
      isMet: peakRssMb <= 300,
    });
  } else {
    if (throughput) {
      checks.push({
        target: '≥ 1,500 msg/s sustained',
        measured: `${throughput.achievedRate}/s at target ${throughput.targetRate}/s, ${throughput.errors.total} errors`,
        isMet: throughput.targetRate >= 1500 && throughput.achievedRate >= 0.98 * 1500 && throughput.errors.total === 0,
      });
    }
    if (latency) {
      checks.push({
        target: 'at 500 msg/s: webhook-to-reply p99 ≤ 60 ms',
        measured: `${ms(latency.replies.latencyMs.p99)} ms (max ${ms(latency.replies.latencyMs.max)})`,
        isMet: latency.targetRate === 500 && latency.replies.latencyMs.p99 <= 60 && latency.errors.total === 0,
      });
    }
  }
  if (dashboards?.dashboards) {
    checks.push({
      target: '1,000 dashboards at 500 msg/s: chat-message p99 ≤ 20 ms',
      measured: `${ms(dashboards.dashboards.latencyMs.p99)} ms with ${dashboards.dashboards.sockets} sockets at ${dashboards.achievedRate}/s`,
      isMet:
        dashboards.dashboards.sockets >= 1000 &&
        dashboards.targetRate >= 500 &&
        dashboards.dashboards.latencyMs.p99 <= 20 &&
        dashboards.errors.total === 0,
    });
  }
  return checks;
}

export function formatTargets(checks: readonly TargetCheck[]): string {
  return checks
    .map((c) => `  ${c.isMet === null ? '  ? ' : c.isMet ? 'MET ' : 'MISS'}  ${c.target.padEnd(58)} ${c.measured}`)
    .join('\n');
}
