import path from 'node:path';
import { repoRoot } from './deployment';

/** Where the bench keeps what it makes: keys, prepared channels, runs, results, comparisons (git-ignored). */
export const benchDataRoot = path.join(repoRoot, 'tools', 'bench', 'data');

/** The moment as a file name's start (`2026-11-27T16-36-04`): runs and reports sort by time. */
export const fileStamp = (): string => new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
