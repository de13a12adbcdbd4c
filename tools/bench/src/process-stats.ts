import { readdirSync, readFileSync } from 'node:fs';
import { endianness } from 'node:os';

/**
 * CPU and memory of a process from /proc (Linux): CPU time is utime + stime of /proc/<pid>/stat,
 * peak memory is VmHWM ("high water mark" of the resident set) of /proc/<pid>/status.
 */

let ticksPerSecond: number | undefined;

/**
 * Clock ticks a second (CLK_TCK), the unit of /proc's CPU times: what sysconf(_SC_CLK_TCK) answers,
 * read from this process's ELF auxiliary vector. Not from `getconf`: starting a process forks this
 * one, and the first read is on the generator's send path at the window's start: ~5 ms there in a
 * 30 s run, 51–57 ms for a process holding 1.4 GB (a 20-minute run's pre-signed requests), while
 * the deliveries due meanwhile wait (docs/performance.md, block of 2026-11-29 03:26 UTC).
 */
export function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = clockTicksOf(readFileSync('/proc/self/auxv')) ?? 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** AT_CLKTCK (17) of an auxiliary vector (pairs of native-endian 64-bit type and value, up to AT_NULL). */
export function clockTicksOf(auxv: Buffer): number | undefined {
  const read =
    endianness() === 'LE' ? (at: number) => auxv.readBigUInt64LE(at) : (at: number) => auxv.readBigUInt64BE(at);
  for (let at = 0; at + 16 <= auxv.length; at += 16) {
    const type = read(at);
    if (type === 0n) return undefined;
    if (type === 17n) return Number(read(at + 8));
  }
  return undefined;
}

/** CPU seconds the process has used so far, all of it (user + system) and in the kernel (system). */
interface CpuTimes {
  seconds: number;
  systemSeconds: number;
}

function cpuTimes(pid: number): CpuTimes | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces: count fields after its closing parenthesis
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return { seconds: (utime + stime) / clockTicks(), systemSeconds: stime / clockTicks() };
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) the process has used so far; undefined when it is gone. */
export function cpuSeconds(pid: number): number | undefined {
  return cpuTimes(pid)?.seconds;
}

export interface MemorySample {
  /** Resident set now, MB. */
  rssMb: number;
  /** The largest resident set since the process started, MB. */
  peakRssMb: number;
}

export function memory(pid: number): MemorySample | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** The resident sets of these processes now, added up (MB); NaN when one of them is gone. */
export function residentMb(pids: readonly number[]): number {
  let sum = 0;
  for (const pid of pids) sum += memory(pid)?.rssMb ?? Number.NaN;
  return sum;
}

/** The names the bench gives the processes it watches that are not Kickstand's. */
export const sandboxProcessName = 'kick-sandbox (Kick)';
export const generatorProcessName = 'generator';
/** Distributed mode's engines on this machine (engines.ts). */
export const kafkaProcessName = 'kafka';
export const secantusProcessName = 'secantusdb';
/** The dashboards phase's socket.io clients, all in one process. */
export const dashboardsProcessName = (clients: number): string => `dashboards (${clients} clients)`;
const notKickstandProcessNames: ReadonlySet<string> = new Set([
  sandboxProcessName,
  generatorProcessName,
  kafkaProcessName,
  secantusProcessName,
]);
/** Every watched process is Kickstand's but the bench's own, the sandbox and the engines. */
export const isKickstandProcess = (name: string): boolean =>
  !notKickstandProcessNames.has(name) && !/^dashboards \(\d+ clients\)$/.test(name);

export interface WatchedProcess {
  name: string;
  pid: number;
}

/** CPU a thread of a watched process used during the window. */
export interface ThreadUsage {
  /** Linux thread id; the main thread's is the process id. */
  tid: number;
  isMain: boolean;
  cpuSeconds: number;
}

export interface ProcessUsage {
  name: string;
  pid: number;
  /** CPU seconds used during the window. */
  cpuSeconds: number;
  /** Of which in the kernel (system time): system calls, and waking and being woken by other threads. */
  systemCpuSeconds: number;
  /** How often its threads went to sleep, and were preempted, during the window (ContextSwitches). */
  switches: ContextSwitches;
  /** The system calls that read and that wrote, during the window (IoCalls). */
  ioCalls: IoCalls;
  /**
   * The threads that used CPU during the window: the main thread first, then the others by CPU
   * used (in Kickstand: the front door's worker, V8's helper threads for the GC, libuv's pool).
   */
  threads: ThreadUsage[];
  /** Average cores busy during the window (1.0 = one core fully). */
  cores: number;
  /** Peak resident set since the process started (VmHWM), MB. */
  peakRssMb: number;
  /** Resident set at the end of the window, MB. */
  rssMb: number;
}

/** CPU over a window (start → stop) for several processes; peak memory since each process started. */
export function startUsageWindow(processes: readonly WatchedProcess[]): { stop(): ProcessUsage[] } {
  const startedAt = performance.now();
  const cpuAtStart = new Map(processes.map((p) => [p.pid, cpuTimes(p.pid)]));
  const threadsAtStart = new Map(processes.map((p) => [p.pid, threadTicks(p.pid)]));
  const switchesAtStart = new Map(processes.map((p) => [p.pid, threadSwitches(p.pid)]));
  const ioCallsAtStart = new Map(processes.map((p) => [p.pid, ioCalls(p.pid)]));
  return {
    stop() {
      const seconds = (performance.now() - startedAt) / 1000;
      return processes.map((p) => {
        const cpu = cpuTimes(p.pid);
        const atStart = cpuAtStart.get(p.pid);
        const used = (cpu?.seconds ?? Number.NaN) - (atStart?.seconds ?? Number.NaN);
        const mem = memory(p.pid);
        return {
          name: p.name,
          pid: p.pid,
          cpuSeconds: used,
          systemCpuSeconds: (cpu?.systemSeconds ?? Number.NaN) - (atStart?.systemSeconds ?? Number.NaN),
          switches: switchesBetween(switchesAtStart.get(p.pid) ?? new Map(), threadSwitches(p.pid)),
          ioCalls: ioCallsBetween(ioCallsAtStart.get(p.pid), ioCalls(p.pid)),
          threads: threadUsage(p.pid, threadsAtStart.get(p.pid) ?? new Map(), threadTicks(p.pid), clockTicks()),
          cores: used / seconds,
          peakRssMb: mem?.peakRssMb ?? Number.NaN,
          rssMb: mem?.rssMb ?? Number.NaN,
        };
      });
    },
  };
}

/** CPU seconds the whole machine spent busy (all cores) so far, from /proc/stat; for "how loaded was it". */
export function machineBusySeconds(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = values;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy / clockTicks(), total: (busy + idle + iowait) / clockTicks() };
}

/**
 * CPU ticks (user + system) of each thread of a process (this one by default), by thread id
 * (clockTicks() a second); empty when the process is gone.
 */
export function threadTicks(pid: number | 'self' = 'self'): Map<string, number> {
  return readEachThread(pid, 'stat', (stat) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  });
}

/**
 * One file of /proc/<pid>/task/<tid>/ read for each thread of a process, as `read` makes it, by
 * thread id; a thread whose file `read` cannot use (undefined) is left out, and so is one that
 * ended between the listing and the read. Empty when the process is gone.
 */
function readEachThread<T>(pid: number | 'self', file: string, read: (text: string) => T | undefined): Map<string, T> {
  const values = new Map<string, T>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return values;
  }
  for (const tid of tids) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/${file}`, 'utf8');
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const value = read(text);
    if (value !== undefined) values.set(tid, value);
  }
  return values;
}

/**
 * What each thread of process `pid` used between two readings of threadTicks: the main thread
 * first, then the others by CPU used; threads that used nothing, or ended before the second
 * reading, are left out.
 */
export function threadUsage(
  pid: number,
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  ticksPerSecond: number,
): ThreadUsage[] {
  const used: ThreadUsage[] = [];
  for (const [tid, ticks] of after) {
    const delta = ticks - (before.get(tid) ?? 0);
    if (delta > 0) used.push({ tid: Number(tid), isMain: Number(tid) === pid, cpuSeconds: delta / ticksPerSecond });
  }
  return used.sort((a, b) => Number(b.isMain) - Number(a.isMain) || b.cpuSeconds - a.cpuSeconds);
}

/**
 * A thread's context switches from /proc/<pid>/task/<tid>/status: `sleeps` (voluntary: it waited
 * for something, epoll or a lock, and had to be woken) and `preemptions` (nonvoluntary: the
 * scheduler took its core while it could run). On a VM where waking a thread on another core is
 * dear (`npm run bench:wakeup`), the sleeps say how many such wake-ups a message costs.
 */
export interface ContextSwitches {
  sleeps: number;
  preemptions: number;
}

/** The context switches of each thread of a process so far, by thread id; empty when it is gone. */
export function threadSwitches(pid: number | 'self' = 'self'): Map<string, ContextSwitches> {
  return readEachThread(pid, 'status', (status) => {
    const sleeps = /^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1];
    const preemptions = /^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1];
    return sleeps === undefined || preemptions === undefined
      ? undefined
      : { sleeps: Number(sleeps), preemptions: Number(preemptions) };
  });
}

/**
 * The switches between two readings of threadSwitches, summed over the threads of the second
 * (one that started in between counts from 0; one that ended before it is left out).
 */
export function switchesBetween(
  before: ReadonlyMap<string, ContextSwitches>,
  after: ReadonlyMap<string, ContextSwitches>,
): ContextSwitches {
  const total: ContextSwitches = { sleeps: 0, preemptions: 0 };
  for (const [tid, now] of after) {
    const then = before.get(tid);
    total.sleeps += now.sleeps - (then?.sleeps ?? 0);
    total.preemptions += now.preemptions - (then?.preemptions ?? 0);
  }
  return total;
}

/**
 * A process's system calls that read (`reads`: read, readv, recvmsg…) and that wrote (`writes`:
 * write, writev, sendmsg…), from syscr and syscw of /proc/<pid>/io: all its threads, those that
 * ended included. On this VM a file append costs ~26 µs and an HTTP answer's socket write over 100
 * (docs/performance.md, session of 2026-11-27 07:25 UTC, "System calls a message"), so how many a
 * message makes is a cost of its own: a file append, a socket write, a wake-up of another thread
 * (an eventfd write) each count one.
 */
export interface IoCalls {
  reads: number;
  writes: number;
}

/** Reads syscr and syscw out of the text of a /proc/<pid>/io file. */
export function parseIoCalls(text: string): IoCalls | undefined {
  const reads = /^syscr:\s+(\d+)/m.exec(text)?.[1];
  const writes = /^syscw:\s+(\d+)/m.exec(text)?.[1];
  return reads === undefined || writes === undefined ? undefined : { reads: Number(reads), writes: Number(writes) };
}

/** The process's read and write system calls so far; undefined when it is gone (or not ours to read). */
export function ioCalls(pid: number | 'self' = 'self'): IoCalls | undefined {
  try {
    return parseIoCalls(readFileSync(`/proc/${pid}/io`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The calls between two readings of ioCalls; NaN when either reading is missing. */
export function ioCallsBetween(before: IoCalls | undefined, after: IoCalls | undefined): IoCalls {
  if (!before || !after) return { reads: Number.NaN, writes: Number.NaN };
  return { reads: after.reads - before.reads, writes: after.writes - before.writes };
}
