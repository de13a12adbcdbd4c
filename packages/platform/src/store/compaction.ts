import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { syncDir } from '../files';
import type { Journal } from './journal';
// NeDB's lines, so the rewritten file holds what NeDB would write
import { serializeNedbLine } from './nedb-serialize';

/** What NeDB keeps of an index in the datafile (a `$$indexCreated` line). */
export interface IndexDefinition {
  fieldName: string;
  unique?: boolean;
  sparse?: boolean;
}

/** A collection's state at one moment, taken between two of its writes. */
export interface Snapshot {
  /** The datastore's document objects: NeDB replaces a document on update, never changes it in place. */
  docs: readonly object[];
  indexes: readonly IndexDefinition[];
}

/**
 * Documents serialised between two yields to the event loop: the longest block while 257,000
 * chat lines were compacted was 7 ms (`npm run bench:compaction`, docs/performance.md).
 */
export const compactionChunkSize = 500;
/**
 * …and at most this long: 500 of analytics' minute documents (~5 kB each) or day documents
 * (thousands of names) took far longer than 500 chat lines (a 144 ms stretch in a profiled run).
 */
export const compactionChunkBudgetMs = 4;

/**
 * NeDB's lines of `docs` from `start`, until `maxDocs` of them or `budgetMs` of `now()` (at least
 * one document); returns them and where the next chunk starts.
 */
export function serializeChunk(
  docs: readonly object[],
  start: number,
  limits: { maxDocs: number; budgetMs: number; now: () => number },
): { text: string; end: number } {
  const startedAt = limits.now();
  let text = '';
  let end = start;
  const last = Math.min(docs.length, start + limits.maxDocs);
  while (end < last) {
    text += `${serializeNedbLine(docs[end])}\n`;
    end += 1;
    if (limits.now() - startedAt >= limits.budgetMs) break;
  }
  return { text, end };
}

export interface RewriteOptions {
  filename: string;
  fileMode: number;
  /** The collection's journal; it must have been capturing since the snapshot was taken. */
  journal: Journal;
  snapshot: Snapshot;
  chunkSize?: number;
  /** How long a chunk may serialise (compactionChunkBudgetMs by default). */
  chunkBudgetMs?: number;
  /** Runs just before the new file replaces the old one (tests stop there, as a crash would). */
  beforeRename?: () => Promise<void>;
}

/**
 * Rewrites a datafile to one line per document, in NeDB's format (documents, then one
 * `$$indexCreated` line per index), without holding the event loop for long: the snapshot is
 * serialised in chunks into `<file>~` while the journal keeps appending to the old file; then,
 * between two appends, the lines journaled since the snapshot are added to the new file, which
 * replaces the old one (rename). Until the rename the old file is whole, so a crash keeps it (NeDB
 * ignores a `<file>~` next to an existing datafile).
 */
export async function rewriteDatafile(options: RewriteOptions): Promise<void> {
  const { filename, fileMode, journal, snapshot } = options;
  const limits = {
    maxDocs: options.chunkSize ?? compactionChunkSize,
    budgetMs: options.chunkBudgetMs ?? compactionChunkBudgetMs,
    now: () => performance.now(),
  };
  const tempFile = `${filename}~`;
  try {
    const file = await open(tempFile, 'w', fileMode);
    try {
      await file.chmod(fileMode); // a leftover temporary file keeps its mode otherwise
      const { docs } = snapshot;
      for (let start = 0; start < docs.length;) {
        const chunk = serializeChunk(docs, start, limits);
        await file.write(chunk.text);
        await new Promise<void>((resolve) => setImmediate(resolve));
        start = chunk.end;
      }
      let indexLines = '';
      for (const index of snapshot.indexes) {
        const { fieldName, unique, sparse } = index;
        indexLines += `${serializeNedbLine({ $$indexCreated: { fieldName, unique, sparse } })}\n`;
      }
      await file.write(indexLines);
      // the bulk goes to disk before the journal waits: inside, only the tail is left to sync
      await file.sync();
      await journal.replacing(async (captured) => {
        await file.write(captured);
        await file.sync();
        await options.beforeRename?.();
        await rename(tempFile, filename);
        await syncDir(path.dirname(filename)); // the rename durable, as NeDB's own crash-safe write makes it
      });
    } finally {
      await file.close();
    }
  } catch (error) {
    journal.stopCapture();
    await rm(tempFile, { force: true });
    throw error;
  }
}
