import type { PhaseResult } from './chat-load';
import { isKickstandProcess, sandboxProcessName } from './process-stats';

/** What a comparison reads of a phase's result. */
export type ComparedPhase = Pick<
  PhaseResult,
  'name' | 'ackLatencyMs' | 'replies' | 'dashboards' | 'errors' | 'processes' | 'machine'
>;

/** The two builds' results of one phase, from one pair of runs made one after the other. */
export interface RunPair {
  other: ComparedPhase;
  self: ComparedPhase;
}

interface Figure {
  label: string;
  /** Undefined when the phase does not have it (no dashboards, say). */
  read(phase: ComparedPhase): number | undefined;
}

const kickstandProcesses = (phase: ComparedPhase) =>
  phase.processes.filter((process) => isKickstandProcess(process.name));

const sumOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0);

/** The figures issue 22's targets are stated in, and what moves them (CPU a message, the machine's load). */
export const comparedFigures: readonly Figure[] = [
  { label: 'ack p50 (ms)', read: (phase) => phase.ackLatencyMs.p50 },
  { label: 'ack p99 (ms)', read: (phase) => phase.ackLatencyMs.p99 },
  { label: 'reply p50 (ms)', read: (phase) => phase.replies.latencyMs.p50 },
  { label: 'reply p99 (ms)', read: (phase) => phase.replies.latencyMs.p99 },
  { label: 'dashboards p99 (ms)', read: (phase) => phase.dashboards?.latencyMs.p99 },
  { label: 'errors', read: (phase) => phase.errors.total },
  {
    label: 'Kickstand CPU ms a message',
    read: (phase) => sumOf(kickstandProcesses(phase).map((p) => p.cpuMsPerMessage)),
  },
  {
    label: '  of it its main thread',
    read: (phase) => {
      const processes = kickstandProcesses(phase);
      // one process in single-machine mode: its main thread is the owner's
      return processes.length === 1
        ? processes[0]?.threads.find((thread) => thread.isMain)?.cpuMsPerMessage
        : undefined;
    },
  },
  {
    label: 'sandbox CPU ms a message',
    read: (phase) => phase.processes.find((process) => process.name === sandboxProcessName)?.cpuMsPerMessage,
  },
  { label: 'machine: cores busy', read: (phase) => phase.machine.busyCores },
  { label: 'Kickstand peak RSS (MB)', read: (phase) => sumOf(kickstandProcesses(phase).map((p) => p.peakRssMb)) },
];

export interface ComparedRow {
  label: string;
  /** Per pair, in the order the pairs ran; undefined where a run does not have the figure. */
  other: (number | undefined)[];
  self: (number | undefined)[];
  otherMedian: number | undefined;
  selfMedian: number | undefined;
  /** self − other within each pair: the pair's two runs met the same state of the machine. */
  differences: (number | undefined)[];
}

export function median(values: readonly (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
  if (known.length === 0) return undefined;
  const sorted = [...known].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * A figure's value, or undefined when the run has none: a phase that measured nothing (it fell
 * behind and stopped) has null percentiles in its JSON report.
 */
function valueOf(figure: Figure, phase: ComparedPhase): number | undefined {
  const value: unknown = figure.read(phase);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** One row per figure that at least one run has. */
export function compareRuns(pairs: readonly RunPair[]): ComparedRow[] {
  return comparedFigures.flatMap((figure) => {
    const other = pairs.map((pair) => valueOf(figure, pair.other));
    const self = pairs.map((pair) => valueOf(figure, pair.self));
    if ([...other, ...self].every((value) => value === undefined)) return [];
    const differences = pairs.map((_, i) => {
      const a = other[i];
      const b = self[i];
      return a === undefined || b === undefined ? undefined : b - a;
    });
    return [{ label: figure.label, other, self, otherMedian: median(other), selfMedian: median(self), differences }];
  });
}

/** Three significant digits at most, as the bench's report prints; "–" for a missing value. */
function shown(value: number | undefined, signed = false): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  const text = Math.abs(value) >= 100 ? value.toFixed(0) : Number(value.toPrecision(3)).toString();
  return signed && value >= 0 ? `+${text}` : text;
}

/** The table the comparison prints for one phase. */
export function formatComparison(
  phaseName: string,
  rows: readonly ComparedRow[],
  labels: { other: string; self: string },
): string[] {
  const pairs = rows[0]?.other.length ?? 0;
  const columns = ['figure', 'other (each run)', 'this (each run)', 'median: other → this', 'this − other, per pair'];
  const cells = rows.map((row) => [
    row.label,
    row.other.map((value) => shown(value)).join(' '),
    row.self.map((value) => shown(value)).join(' '),
    `${shown(row.otherMedian)} → ${shown(row.selfMedian)}`,
    row.differences.map((value) => shown(value, true)).join(' '),
  ]);
  const widths = columns.map((column, i) =>
    Math.max(column.length, ...cells.map((cell) => (cell[i] as string).length)),
  );
  const line = (cell: string[]) =>
    cell
      .map((text, i) => text.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  return [
    `phase ${phaseName}: ${pairs} pair${pairs === 1 ? '' : 's'} of runs (other: ${labels.other}; this: ${labels.self}), other first in odd pairs, this in even`,
    line(columns),
    ...cells.map(line),
  ];
}
