import { writeFileSync } from 'node:fs';
import type { AllocationProfileKind } from './allocation-probe';
import type { AllocationSummary } from './allocation-profile';
import type { DashboardsHandle } from './dashboards-client';
import type { Deployment } from './deployment';
import { kickstandWindow, scrapeMetrics, type KickstandWindowMetrics } from './kickstand-metrics';
import { countLogLines, logSize, type LogCount } from './log-file';
import { defaultTimelineBinSeconds } from './options';
import type { PromSample } from './prom-text';
import { measureSigningMs, plannedStart, presign, type PresignedPhase } from './presign';
import {
  machineBusySeconds,
  residentMb,
  startUsageWindow,
  type ProcessUsage,
  type WatchedProcess,
} from './process-stats';
import { createRawHttpPool } from './raw-http';
import { rounded, Samples, timeline, type LatencySummary, type TimelineBin } from './stats';
import { compactSchedule, planPhase, scheduleFlags, type BenchChannel, type PhaseSchedule } from './workload';

/**
 * One measured phase: chat.message.sent deliveries for every channel at a steady rate, signed
 * beforehand, POSTed to the gateway's /api/kick/webhook over keep-alive connections.
 *
 * - Acknowledgement latency runs from the moment a delivery was due (its place in the schedule) to
 *   the webhook's answer, so a generator or a server that falls behind shows up as latency instead
 *   of as a slower schedule ("coordinated omission").
 * - Reply latency runs from the moment the delivery was written to the moment the sandbox recorded
 *   the bot's answer (its `createdAt`, read back with GET /sandbox/api/chat). Both are wall-clock
 *   milliseconds of this machine.
 * - Dashboard latency (with dashboards connected) runs from the write to the chat-message event's
 *   arrival at a socket.io client in the dashboards process.
 */

export interface PhaseSettings {
  name: string;
  rate: number;
  durationSeconds: number;
  warmupSeconds: number;
  commandShare: number;
  seed: number;
  connections: number;
  /** Diagnostics: POST straight to kick-link, skipping the gateway (the proxy hop's cost). */
  isDirect?: boolean;
  /** The width of the timeline's bins (`timeline`), 5 s unless told. */
  timelineBinSeconds?: number;
  /** After the last delivery, how long replies still on their way are waited for; 15 unless told (the drill waits out a backlog). */
  replyWaitSeconds?: number;
  /**
   * Stop waiting once no reply came for this long (3 s unless told). The drill waits its whole
   * replyWaitSeconds instead: after a Kafka outage the consumer groups rejoin before any reply
   * moves again, and a reply that comes late is not a lost one.
   */
  replyQuietSeconds?: number;
}

export interface PhaseResult {
  name: string;
  mode: 'single' | 'distributed';
  targetRate: number;
  durationSeconds: number;
  warmupSeconds: number;
  channels: number;
  commandShare: number;
  signingSeconds: number;
  sent: number;
  /** Deliveries answered 2xx per second of the measured window (the warm-up's late answers included). */
  achievedRate: number;
  ackLatencyMs: LatencySummary;
  /** How late the generator wrote deliveries against its schedule. */
  generatorLagMs: LatencySummary;
  errors: {
    total: number;
    /** Answers other than 2xx, by status. */
    byStatus: Record<string, number>;
    /** No answer (refused, reset, timeout). */
    transport: number;
    transportSamples: string[];
    /** Never written: the server fell more than 5 s behind the schedule and the phase stopped early. */
    notSent: number;
    /** How many measured deliveries had been sent when the phase stopped early. */
    fellBehindAfter?: number;
    missingReplies: number;
    duplicateReplies: number;
    missingDashboardMessages: number;
  };
  replies: {
    commands: number;
    expected: number;
    /** Commands sent within the cooldown guard of the same command in the channel: not counted. */
    cooldownSkipped: number;
    received: number;
    /** Answers to commands that were expected to fall in the cooldown (not errors). */
    answeredDespiteCooldown: number;
    latencyMs: LatencySummary;
  };
  dashboards?: {
    sockets: number;
    expected: number;
    received: number;
    latencyMs: LatencySummary;
    disconnects: number;
  };
  /**
   * Per process; `cpuMsPerMessage` is its CPU time per delivery answered in the window (the cost of a
   * message), for the process and for each of its threads; `systemCpuMsPerMessage` the part of it in
   * the kernel; `sleepsPerMessage` / `preemptionsPerMessage` its threads' context switches a message;
   * `readCallsPerMessage` / `writeCallsPerMessage` its read and write system calls a message.
   */
  processes: (Omit<ProcessUsage, 'threads'> & {
    cpuMsPerMessage: number;
    systemCpuMsPerMessage: number;
    sleepsPerMessage: number;
    preemptionsPerMessage: number;
    readCallsPerMessage: number;
    writeCallsPerMessage: number;
    threads: (ProcessUsage['threads'][number] & { cpuMsPerMessage: number })[];
  })[];
  machine: { cores: number; busyCores: number; otherCores: number };
  logs: Record<string, LogCount>;
  /**
   * Single-machine mode: where the time of the window's replies went inside Kickstand, from its
   * /metrics scraped at the window's start and once the replies were in (kickstand-metrics.ts);
   * absent when the endpoint could not be read (then `kickstandMetricsError` says why).
   */
  kickstand?: KickstandWindowMetrics;
  kickstandMetricsError?: string;
  /**
   * Ack and reply latency per 5 s of the window (ack by when the delivery was due, reply by when
   * it was written): a periodic stall shows as a bin or two, a broad tail as every bin. And
   * Kickstand's resident set per bin: when its peak came.
   */
  timeline?: {
    binSeconds: number;
    ack: TimelineBin[];
    reply: TimelineBin[];
    /** Kickstand's resident set (all its processes) in MB, sampled every 250 ms: `max` is a bin's largest. */
    kickstandRssMb: TimelineBin[];
    /** With dashboards connected: their chat-message latency, by when the delivery was written. */
    dashboards?: TimelineBin[];
  };
  /**
   * `--alloc-prof`: what Kickstand's owner thread allocated a message over the window, by function;
   * `--promoted-prof` (kind `promoted`): what of it outlived the young generation.
   */
  ownerAllocations?: AllocationSummary & { kind: AllocationProfileKind };
}

interface SandboxChatLine {
  seq: number;
  replyToMessageId: string | null;
  createdAt: string;
}

async function sandboxBotLines(sandboxUrl: string, afterSeq: number, waitMs: number): Promise<SandboxChatLine[]> {
  const response = await fetch(
    `${sandboxUrl}/sandbox/api/chat?type=bot&afterSeq=${afterSeq}&limit=1000&waitMs=${waitMs}`,
    { signal: AbortSignal.timeout(waitMs + 10_000) },
  );
  const json = (await response.json()) as { data?: SandboxChatLine[] };
  return json.data ?? [];
}

async function lastBotSeq(sandboxUrl: string): Promise<number> {
  const response = await fetch(`${sandboxUrl}/sandbox/api/chat?type=bot&limit=1`);
  const json = (await response.json()) as { data?: SandboxChatLine[] };
  return json.data?.at(-1)?.seq ?? 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A backlog of this many seconds of deliveries means the rate cannot be sustained: the phase stops. */
const maxBehindSeconds = 5;

/**
 * How often the window samples Kickstand's resident set (a read of /proc/<pid>/status, ~30 µs): a
 * spike shorter than this may fall between two samples, which VmHWM, the peak, still counts.
 */
const rssSampleMs = 250;

/**
 * Plans the phase and signs its deliveries; returns only what the phase needs while it runs, so
 * that the planned messages (a few strings each) are garbage before the first delivery goes out.
 */
async function prepare(
  channels: readonly BenchChannel[],
  settings: PhaseSettings,
  signingKeyPem: string,
  hostHeader: string,
  progress: (line: string) => void,
): Promise<{ schedule: PhaseSchedule; signed: PresignedPhase; startsAtEpochMs: number }> {
  const plan = planPhase({
    channels,
    rate: settings.rate,
    durationSeconds: settings.durationSeconds,
    warmupSeconds: settings.warmupSeconds,
    commandShare: settings.commandShare,
    seed: settings.seed,
  });
  const signatureMs = measureSigningMs(signingKeyPem);
  const startsAtEpochMs = plannedStart(plan.length, signatureMs);
  progress(
    `  signing ${plan.length} deliveries (${signatureMs.toFixed(2)} ms a signature here; ` +
      `the phase starts at ${new Date(startsAtEpochMs).toISOString()})…`,
  );
  const signed = await presign(plan, channels, signingKeyPem, startsAtEpochMs, {
    hostHeader,
    path: '/api/kick/webhook',
  });
  return { schedule: compactSchedule(plan), signed, startsAtEpochMs };
}

export async function runChatPhase(context: {
  deployment: Deployment;
  channels: readonly BenchChannel[];
  signingKeyPem: string;
  settings: PhaseSettings;
  watched: readonly WatchedProcess[];
  dashboards?: DashboardsHandle;
  /** Dashboards per channel index (with dashboards connected). */
  dashboardsPerChannel?: readonly number[];
  progress: (line: string) => void;
  /** Told the epoch ms at which the first delivery goes out (the warm-up's start). */
  onStart?: (epochMs: number) => void;
  /** Told when the measured window starts (its first delivery) and ends (its last answer). */
  onWindow?: { start(): void; end(): void };
}): Promise<PhaseResult> {
  const { deployment, channels, settings, progress } = context;
  const host = new URL(deployment.gatewayUrl).hostname;
  const port = settings.isDirect ? deployment.servicePorts['kick-link'] : deployment.gatewayPort;
  if (port === undefined) throw new Error("kick-link's port is not known");
  // what the phase holds while it runs: typed arrays and off-heap bytes (the planned messages are dropped here)
  const { schedule, signed, startsAtEpochMs } = await prepare(
    channels,
    settings,
    context.signingKeyPem,
    `${host}:${port}`,
    progress,
  );
  progress(
    `  signed in ${signed.signingSeconds.toFixed(1)} s (${(signed.requests.byteLength / 2 ** 20).toFixed(0)} MB of requests); sending ${settings.rate}/s for ${settings.warmupSeconds} + ${settings.durationSeconds} s`,
  );
  const count = schedule.count;
  const { firstMeasured } = schedule;
  const hasFlag = (i: number, flag: number) => ((schedule.flags[i] as number) & flag) !== 0;

  const sentAtEpochMs = new Float64Array(count);
  const replyAtEpochMs = new Float64Array(count);
  const replyCount = new Uint8Array(count);
  // per message: 0 not sent, 1 answered 2xx, 2 answered otherwise, 3 no answer, 4 dropped (never written)
  const outcome = new Uint8Array(count);
  const measuredCapacity = count - firstMeasured;
  const ackLatency = new Samples(measuredCapacity);
  const lag = new Samples(measuredCapacity);
  const byStatus: Record<string, number> = {};
  const transportSamples: string[] = [];
  let acked = 0;
  let sentCount = 0;
  let lastMeasuredAckAt = 0;
  let fellBehindAt: number | undefined;

  // replies: follow the sandbox's record of the bot's lines for the whole phase
  let afterSeq = await lastBotSeq(deployment.sandboxUrl);
  let isPolling = true;
  let lastReplyAt = performance.now();
  const poller = (async () => {
    while (isPolling) {
      try {
        const lines = await sandboxBotLines(deployment.sandboxUrl, afterSeq, 1000);
        for (const line of lines) {
          afterSeq = Math.max(afterSeq, line.seq);
          const index = line.replyToMessageId ? signed.chatMessageIds.indexOf(line.replyToMessageId) : -1;
          if (index < 0) continue;
          lastReplyAt = performance.now();
          if (replyCount[index] === 0) replyAtEpochMs[index] = Date.parse(line.createdAt);
          replyCount[index] = Math.min(255, (replyCount[index] as number) + 1);
        }
        // a full page means more are waiting; otherwise breathe, so polling costs the sandbox little
        if (lines.length < 1000) await sleep(200);
      } catch (error) {
        progress(`  (reply poll failed: ${error instanceof Error ? error.message : String(error)})`);
        await sleep(500);
      }
    }
  })();

  const logStarts = Object.fromEntries(
    await Promise.all(
      [...deployment.kickstand, deployment.sandbox].map(async (p) => [p.name, await logSize(p.logFile)] as const),
    ),
  );

  let usage: ReturnType<typeof startUsageWindow> | undefined;
  let machineAtStart: ReturnType<typeof machineBusySeconds> | undefined;
  // more than this far behind the schedule, the rate is not sustainable: the phase ends early
  const maxBacklog = Math.max(100, settings.rate * maxBehindSeconds);
  // on the planned start, which the deliveries' created_at count from (later if signing took longer)
  const t0 = performance.now() + Math.max(100, startsAtEpochMs - Date.now());
  context.onStart?.(Date.now() + (t0 - performance.now()));
  const windowStartAt = t0 + settings.warmupSeconds * 1000;
  let answeredInWindow = 0;
  let answeredOkInWindow = 0;
  let metricsAtStart: Promise<{ samples: PromSample[] } | { error: unknown }> | undefined;
  const ackAt = new Samples(measuredCapacity);
  const ackValue = new Samples(measuredCapacity);
  let lastAnswerAt = windowStartAt;
  // when in the window Kickstand's memory peaks (VmHWM says only how high): its resident set, now and then
  const kickstandPids = deployment.kickstand.map((p) => p.pid);
  const rssAt: number[] = [];
  const rssMb: number[] = [];
  let lastRssAt = Number.NEGATIVE_INFINITY;
  // diagnostics: every measured delivery as "due (epoch ms),written − due,answered − due,status" (BENCH_ACK_TRACE=<file>)
  const ackTrace: string[] | undefined = process.env.BENCH_ACK_TRACE ? [] : undefined;
  const writtenAt = ackTrace ? new Float64Array(count) : undefined;
  let onAllAnswered = () => {};
  // every answer comes here with the index of its delivery (no closure per request)
  const onAnswer = (i: number, status: number | null, error?: string) => {
    acked++;
    const now = performance.now();
    const dueAt = t0 + (schedule.atMs[i] as number);
    // the server's throughput: every answer inside the measured window counts, warm-up ones too
    if (now >= windowStartAt && status !== null) {
      answeredInWindow++;
      if (status >= 200 && status < 300) answeredOkInWindow++;
      lastAnswerAt = now;
    }
    if (status !== null && status >= 200 && status < 300) outcome[i] = 1;
    else if (status !== null) outcome[i] = 2;
    else outcome[i] = error?.startsWith('dropped') ? 4 : 3;
    if (i >= firstMeasured && outcome[i] !== 4) {
      ackLatency.push(now - dueAt);
      ackAt.push(dueAt - windowStartAt);
      ackValue.push(now - dueAt);
      ackTrace?.push(
        `${(performance.timeOrigin + dueAt).toFixed(2)},${((writtenAt?.[i] ?? 0) - dueAt).toFixed(2)},${(now - dueAt).toFixed(2)},${status ?? 0}`,
      );
      lastMeasuredAckAt = Math.max(lastMeasuredAckAt, now);
      if (outcome[i] === 2) byStatus[status as number] = (byStatus[status as number] ?? 0) + 1;
      if (outcome[i] === 3 && error && transportSamples.length < 5 && !transportSamples.includes(error)) {
        transportSamples.push(error);
      }
    }
    onAllAnswered();
  };
  const pool = createRawHttpPool({ host, port, connections: settings.connections, timeoutMs: 10_000, onAnswer });

  await new Promise<void>((resolveAll) => {
    let next = 0;
    let isSending = true;
    const maybeDone = () => {
      if (!isSending && acked === sentCount) resolveAll();
    };
    onAllAnswered = maybeDone;
    const send = (i: number) => {
      const dueAt = t0 + (schedule.atMs[i] as number);
      if (i === firstMeasured) {
        usage = startUsageWindow(context.watched);
        context.onWindow?.start();
        machineAtStart = machineBusySeconds();
        if (deployment.metricsUrl) {
          metricsAtStart = scrapeMetrics(deployment.metricsUrl).then(
            (samples) => ({ samples }),
            (error: unknown) => ({ error }),
          );
        }
      }
      sentAtEpochMs[i] = Date.now();
      sentCount++;
      const now = performance.now();
      if (i >= firstMeasured) lag.push(now - dueAt);
      if (writtenAt) writtenAt[i] = now;
      pool.request(signed.requests.get(i), i);
    };
    let lastReport = performance.now();
    const pump = () => {
      const now = performance.now();
      const elapsed = now - t0;
      while (next < count && (schedule.atMs[next] as number) <= elapsed) send(next++);
      // after this tick's deliveries went out, so that the read does not make them late
      if (now >= windowStartAt && now - lastRssAt >= rssSampleMs) {
        lastRssAt = now;
        rssAt.push(now - windowStartAt);
        rssMb.push(residentMb(kickstandPids));
      }
      if (now - lastReport > 5000) {
        lastReport = now;
        progress(
          `  ${Math.round(elapsed / 1000)} s: ${next} sent, ${acked} answered, ${pool.inFlight} in flight, ${pool.queued} queued`,
        );
      }
      // judged once at least a few measured seconds went by, so there are figures to report
      if (pool.queued > maxBacklog && elapsed > (settings.warmupSeconds + maxBehindSeconds) * 1000) {
        fellBehindAt = next;
        const dropped = pool.dropQueued('dropped: the generator fell behind');
        progress(
          `  more than ${maxBehindSeconds} s behind the schedule after ${Math.round(elapsed / 1000)} s: stopping (${dropped} queued deliveries dropped, ${count - next} never sent)`,
        );
        clearInterval(pumpTimer);
        isSending = false;
        maybeDone();
        return;
      }
      if (next >= count) {
        clearInterval(pumpTimer);
        isSending = false;
        maybeDone();
      }
    };
    // from the phase's start, every millisecond (one Timeout, not a new one each time)
    let pumpTimer: NodeJS.Timeout | undefined;
    setTimeout(
      () => {
        pumpTimer = setInterval(pump, 1);
        pump();
      },
      Math.max(0, t0 - performance.now()),
    );
  });
  const processes = usage?.stop() ?? [];
  if (usage) context.onWindow?.end();
  if (ackTrace && process.env.BENCH_ACK_TRACE) writeFileSync(process.env.BENCH_ACK_TRACE, ackTrace.join('\n') + '\n');
  const machineAtEnd = machineBusySeconds();
  const windowSeconds = Math.max(0, Math.max(lastMeasuredAckAt, lastAnswerAt) - windowStartAt) / 1000;
  pool.close();
  let transport = 0;
  let notSent = 0;
  for (let i = firstMeasured; i < count; i++) {
    if (outcome[i] === 3) transport++;
    else if (outcome[i] === 0 || outcome[i] === 4) notSent++;
  }

  // wait for the replies still on their way: until every expected one came, or none came for 3 s (15 s at most unless told)
  const expectedIndexes: number[] = [];
  for (let i = firstMeasured; i < count; i++) {
    if (hasFlag(i, scheduleFlags.expectsReply) && outcome[i] === 1) expectedIndexes.push(i);
  }
  const waitUntil = performance.now() + (settings.replyWaitSeconds ?? 15) * 1000;
  while (
    performance.now() < waitUntil &&
    expectedIndexes.some((i) => replyCount[i] === 0) &&
    performance.now() - lastReplyAt < (settings.replyQuietSeconds ?? 3) * 1000
  ) {
    await sleep(200);
  }
  await sleep(1000); // late duplicates would show up now
  isPolling = false;
  await poller;

  // every measured reply is in (or missing): Kickstand's own account of the window
  let kickstand: KickstandWindowMetrics | undefined;
  let kickstandMetricsError: string | undefined;
  if (deployment.metricsUrl && metricsAtStart) {
    try {
      const before = await metricsAtStart;
      if ('error' in before) throw before.error;
      kickstand = kickstandWindow(before.samples, await scrapeMetrics(deployment.metricsUrl));
    } catch (error) {
      kickstandMetricsError = error instanceof Error ? error.message : String(error);
    }
  }

  const replyLatency = new Samples();
  const replyAt = new Samples();
  const windowStartEpochMs = Date.now() + (windowStartAt - performance.now());
  let received = 0;
  let duplicates = 0;
  let answeredDespiteCooldown = 0;
  let commands = 0;
  let cooldownSkipped = 0;
  for (let i = firstMeasured; i < count; i++) {
    if (!hasFlag(i, scheduleFlags.isCommand) || outcome[i] !== 1) continue;
    commands++;
    const count = replyCount[i] as number;
    if (count > 1) duplicates += count - 1;
    if (!hasFlag(i, scheduleFlags.expectsReply)) {
      cooldownSkipped++;
      if (count > 0) answeredDespiteCooldown++;
      continue;
    }
    if (count > 0) {
      received++;
      replyLatency.push((replyAtEpochMs[i] as number) - (sentAtEpochMs[i] as number));
      replyAt.push((sentAtEpochMs[i] as number) - windowStartEpochMs);
    }
  }
  const missingReplies = expectedIndexes.length - received;

  let dashboards: PhaseResult['dashboards'];
  let missingDashboardMessages = 0;
  const dashboardAt = new Samples();
  const dashboardLatency = new Samples();
  if (context.dashboards && context.dashboardsPerChannel) {
    await sleep(1000);
    const records = await context.dashboards.collect();
    let expected = 0;
    for (let i = firstMeasured; i < count; i++) {
      if (outcome[i] === 1) expected += context.dashboardsPerChannel[schedule.channel[i] as number] ?? 0;
    }
    let got = 0;
    records.ids.forEach((id, k) => {
      const index = signed.chatMessageIds.indexOf(id);
      if (index < firstMeasured) return;
      got++;
      const sentAt = sentAtEpochMs[index] as number;
      dashboardLatency.push((records.at[k] as number) - sentAt);
      dashboardAt.push(sentAt - windowStartEpochMs);
    });
    missingDashboardMessages = Math.max(0, expected - got);
    dashboards = {
      sockets: context.dashboards.connected,
      expected,
      received: got,
      latencyMs: rounded(dashboardLatency.summary()),
      disconnects: records.disconnects,
    };
  }

  const logs: Record<string, LogCount> = {};
  for (const p of [...deployment.kickstand, deployment.sandbox]) {
    logs[p.name] = await countLogLines(p.logFile, logStarts[p.name] ?? 0);
  }

  const statusErrors = Object.values(byStatus).reduce((a, b) => a + b, 0);
  // deliveries of the window that were written (a phase that fell behind stopped early)
  const measuredCount = count - firstMeasured - notSent;
  const binSeconds = settings.timelineBinSeconds ?? defaultTimelineBinSeconds;
  /** A process's count or CPU ms over the window, per delivery answered in it (3 decimals). */
  const perAnswered = (value: number) => Number((value / Math.max(1, answeredInWindow)).toFixed(3));
  const windowCpu = processes.reduce((sum, p) => sum + (Number.isFinite(p.cpuSeconds) ? p.cpuSeconds : 0), 0);
  const machineBusy = machineAtStart ? machineAtEnd.busy - machineAtStart.busy : Number.NaN;
  const machineTotal = machineAtStart ? machineAtEnd.total - machineAtStart.total : Number.NaN;
  const perWindow = (value: number) => (windowSeconds > 0 ? Number((value / windowSeconds).toFixed(2)) : Number.NaN);
  const cores = machineTotal / Math.max(windowSeconds, 1e-9);
  return {
    name: settings.name,
    mode: deployment.mode,
    targetRate: settings.rate,
    durationSeconds: settings.durationSeconds,
    warmupSeconds: settings.warmupSeconds,
    channels: channels.length,
    commandShare: settings.commandShare,
    signingSeconds: Number(signed.signingSeconds.toFixed(1)),
    sent: measuredCount,
    achievedRate: windowSeconds > 0 ? Number((answeredOkInWindow / windowSeconds).toFixed(1)) : 0,
    ackLatencyMs: rounded(ackLatency.summary()),
    generatorLagMs: rounded(lag.summary()),
    errors: {
      total: statusErrors + transport + notSent + missingReplies + duplicates + missingDashboardMessages,
      byStatus,
      transport,
      notSent,
      ...(fellBehindAt === undefined ? {} : { fellBehindAfter: Math.max(0, fellBehindAt - firstMeasured) }),
      transportSamples,
      missingReplies,
      duplicateReplies: duplicates,
      missingDashboardMessages,
    },
    replies: {
      commands,
      expected: expectedIndexes.length,
      cooldownSkipped,
      received,
      answeredDespiteCooldown,
      latencyMs: rounded(replyLatency.summary()),
    },
    ...(dashboards ? { dashboards } : {}),
    processes: processes.map((p) => ({
      ...p,
      cpuMsPerMessage: perAnswered(p.cpuSeconds * 1000),
      systemCpuSeconds: Number(p.systemCpuSeconds.toFixed(2)),
      systemCpuMsPerMessage: perAnswered(p.systemCpuSeconds * 1000),
      sleepsPerMessage: perAnswered(p.switches.sleeps),
      preemptionsPerMessage: perAnswered(p.switches.preemptions),
      readCallsPerMessage: perAnswered(p.ioCalls.reads),
      writeCallsPerMessage: perAnswered(p.ioCalls.writes),
      threads: p.threads.map((t) => ({
        ...t,
        cpuSeconds: Number(t.cpuSeconds.toFixed(2)),
        cpuMsPerMessage: perAnswered(t.cpuSeconds * 1000),
      })),
      cpuSeconds: Number(p.cpuSeconds.toFixed(2)),
      cores: Number(p.cores.toFixed(2)),
      peakRssMb: Number(p.peakRssMb.toFixed(1)),
      rssMb: Number(p.rssMb.toFixed(1)),
    })),
    machine: {
      cores: Number(cores.toFixed(2)),
      busyCores: perWindow(machineBusy),
      otherCores: perWindow(machineBusy - windowCpu),
    },
    logs,
    ...(kickstand ? { kickstand } : {}),
    ...(kickstandMetricsError ? { kickstandMetricsError } : {}),
    timeline: {
      binSeconds,
      ack: timeline(ackAt.toArray(), ackValue.toArray(), binSeconds * 1000),
      reply: timeline(replyAt.toArray(), replyLatency.toArray(), binSeconds * 1000),
      kickstandRssMb: timeline(rssAt, rssMb, binSeconds * 1000),
      ...(dashboards
        ? { dashboards: timeline(dashboardAt.toArray(), dashboardLatency.toArray(), binSeconds * 1000) }
        : {}),
    },
  };
}
