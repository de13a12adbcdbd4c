import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { benchDataRoot, fileStamp } from './bench-data';
import type { PhaseResult } from './chat-load';
import { compareRuns, formatComparison, type RunPair } from './compare-summary';
import { parseCompareOptions, type CompareOptions } from './compare-options';
import { repoRoot } from './deployment';

/**
 * `npm run bench:compare`: the bench run N times on each of two sides, alternating (which side
 * goes first alternates too, pair by pair), and each figure printed per run, as medians and as the
 * difference within each pair. The machine's speed drifts by more than most changes move a figure
 * (one build's reply p99 was 44, 140 and 238 ms in three runs of one session: docs/performance.md),
 * so a change is judged by runs that alternate with the version it changes, not by one run of each
 * at different times.
 */

interface BenchReport {
  phases: PhaseResult[];
}

const log = (line: string) => console.log(line);

/** One `npm run bench` (its compiled entry), its output to `logFile`; resolves with its JSON report. */
async function runBench(options: CompareOptions, side: 'other' | 'self', logFile: string): Promise<BenchReport> {
  const reportFile = logFile.replace(/\.log$/, '.json');
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.BENCH_KICKSTAND_ROOT;
  if (side === 'other') {
    if (options.otherRoot !== undefined) env.BENCH_KICKSTAND_ROOT = options.otherRoot;
    Object.assign(env, options.otherEnv);
  }
  const output = createWriteStream(logFile);
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, 'tools', 'bench', 'dist', 'main.js'), ...options.benchArgs, '--out', reportFile],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.pipe(output, { end: false });
  child.stderr.pipe(output, { end: false });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  output.end();
  if (code !== 0) throw new Error(`the bench failed (exit code ${code}): see ${path.relative(repoRoot, logFile)}`);
  return JSON.parse(await readFile(reportFile, 'utf8')) as BenchReport;
}

/** A run's ack and reply p99 per phase, to follow the comparison while it runs. */
const headline = (report: BenchReport) =>
  report.phases
    .map(
      (phase) =>
        `${phase.name} ack p99 ${phase.ackLatencyMs.p99 ?? '–'} ms, reply p99 ${phase.replies.latencyMs.p99 ?? '–'} ms, ${phase.errors.total} errors`,
    )
    .join('; ');

async function main(): Promise<void> {
  const options = parseCompareOptions(process.argv.slice(2));
  const dir = path.join(benchDataRoot, 'compare', fileStamp());
  await mkdir(dir, { recursive: true });
  log(`comparing ${options.labels.other} (other) with ${options.labels.self} (this): ${options.pairs} pairs`);
  log(`each run's output and JSON report: ${path.relative(repoRoot, dir)}`);
  const reports: Array<{ other: BenchReport; self: BenchReport }> = [];
  for (let pair = 1; pair <= options.pairs; pair++) {
    const run = async (side: 'other' | 'self') => {
      const report = await runBench(options, side, path.join(dir, `${pair}-${side === 'self' ? 'this' : 'other'}.log`));
      log(`pair ${pair}, ${side === 'self' ? 'this: ' : 'other:'} ${headline(report)}`);
      return report;
    };
    // the side that runs first alternates (other, this, this, other, …): a second run that meets a
    // machine the first one left (its page cache, its heat) weighs on both sides alike
    let other: BenchReport;
    let self: BenchReport;
    if (pair % 2 === 1) {
      other = await run('other');
      self = await run('self');
    } else {
      self = await run('self');
      other = await run('other');
    }
    reports.push({ other, self });
  }
  for (const phase of reports[0]?.self.phases ?? []) {
    const pairs: RunPair[] = reports.flatMap(({ other, self }) => {
      const otherPhase = other.phases.find((candidate) => candidate.name === phase.name);
      const selfPhase = self.phases.find((candidate) => candidate.name === phase.name);
      return otherPhase && selfPhase ? [{ other: otherPhase, self: selfPhase }] : [];
    });
    log('');
    for (const line of formatComparison(phase.name, compareRuns(pairs), options.labels)) log(line);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
