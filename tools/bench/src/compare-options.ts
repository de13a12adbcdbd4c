import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { passedThroughNames } from './deployment';

/**
 * `npm run bench:compare`'s options (compare.ts). The other side is another built checkout, one
 * or more of the settings the bench passes to Kickstand, or both.
 */
export interface CompareOptions {
  pairs: number;
  otherRoot: string | undefined;
  /** Settings for the other side's Kickstand (NAME → value), among passedThroughNames. */
  otherEnv: Record<string, string>;
  labels: { other: string; self: string };
  /** What `npm run bench` is given on both sides (the part after `--`). */
  benchArgs: string[];
}

export const compareUsage = `npm run bench:compare -- [--pairs N] (--other-root DIR | --other-env NAME=VALUE …) [--other-label TEXT] [--this-label TEXT] -- <npm run bench options>

Runs the bench N times (default 3) on each side, alternating (the other side first in odd pairs,
this side in even ones), and prints each figure per run, the medians and the difference within
each pair.
  --other-root DIR        another built checkout of Kickstand (npm install, npx tsc -b): BENCH_KICKSTAND_ROOT
  --other-env NAME=VALUE  a Kickstand setting on the other side only: ${passedThroughNames.join(', ')}
`;

export class CompareUsageError extends Error {
  constructor(message: string) {
    super(`${message}\n\n${compareUsage}`);
    this.name = 'CompareUsageError';
  }
}

const maxPairs = 20;

export function parseCompareOptions(argv: readonly string[]): CompareOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        pairs: { type: 'string', default: '3' },
        'other-root': { type: 'string' },
        'other-env': { type: 'string', multiple: true, default: [] },
        'other-label': { type: 'string' },
        'this-label': { type: 'string' },
      },
      allowPositionals: true,
    });
  } catch (error) {
    throw new CompareUsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const pairs = Number(values.pairs);
  if (!Number.isInteger(pairs) || pairs < 1 || pairs > maxPairs) {
    throw new CompareUsageError(`--pairs must be a whole number from 1 to ${maxPairs}, got "${values.pairs}"`);
  }
  const otherRoot = values['other-root'] === undefined ? undefined : path.resolve(values['other-root']);
  if (otherRoot !== undefined && !existsSync(path.join(otherRoot, 'apps', 'single-machine', 'dist', 'main.js'))) {
    throw new CompareUsageError(
      `${otherRoot} is not a built checkout of Kickstand (no apps/single-machine/dist/main.js)`,
    );
  }
  const otherEnv: Record<string, string> = {};
  for (const assignment of values['other-env']) {
    const match = /^([A-Z_]+)=(.*)$/.exec(assignment);
    if (!match || !passedThroughNames.includes(match[1] as string)) {
      throw new CompareUsageError(
        `--other-env takes NAME=VALUE with NAME one of ${passedThroughNames.join(', ')}, got "${assignment}"`,
      );
    }
    otherEnv[match[1] as string] = match[2] as string;
  }
  if (positionals.some((arg) => arg === '--out' || arg.startsWith('--out='))) {
    throw new CompareUsageError("--out is the comparison's own: each run's JSON report is kept beside its log");
  }
  if (otherRoot === undefined && Object.keys(otherEnv).length === 0) {
    throw new CompareUsageError('nothing to compare with: give --other-root, --other-env or both');
  }
  const described = [
    ...(otherRoot === undefined ? [] : [otherRoot]),
    ...Object.entries(otherEnv).map(([name, value]) => `${name}=${value}`),
  ].join(' ');
  return {
    pairs,
    otherRoot,
    otherEnv,
    labels: { other: values['other-label'] ?? described, self: values['this-label'] ?? 'this checkout' },
    benchArgs: positionals,
  };
}
