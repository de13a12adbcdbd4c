/**
 * What the sandbox keeps of what happened, for inspection (the control API's `GET /calls` and
 * `GET /deliveries`): the newest `keep` records in memory, in `seq` order. Not in the store: they
 * were three of its four writes per bot line (the delivery written twice, its ~1.2 KB body
 * serialised each time), and a reply waited for them (docs/performance.md, "Second round"). Only
 * this process writes them, and a restart starts them over (the README says what a restart keeps).
 */
export interface SequencedRecord {
  _id: string;
  seq: number;
}

export interface RecordLog<T extends SequencedRecord> {
  /** Keeps the record with the next `seq` (1 for the first); the oldest goes past `keep`. */
  add(record: Omit<T, 'seq'>): T;
  /**
   * Replaces the record of this id by `change(record)` (which returns a new object: records handed
   * out stay as they were); undefined when it is no longer kept.
   */
  update(id: string, change: (record: T) => T): T | undefined;
  byId(id: string): T | undefined;
  /**
   * The matching records: with `afterSeq`, the first `limit` after it, oldest first; without, the
   * newest `limit`, still oldest first.
   */
  list(matches: (record: T) => boolean, afterSeq: number | undefined, limit: number): T[];
}

export function createRecordLog<T extends SequencedRecord>(keep: number): RecordLog<T> {
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`a record log keeps at least one record (${keep})`);
  /** Oldest first; `seq` rises by one from each record to the next, so a record's place is `seq - first seq`. */
  let records: T[] = [];
  const byId = new Map<string, T>();
  let lastSeq = 0;

  /** The index of the first record with a seq above `seq`. */
  const indexAfter = (seq: number): number => {
    const first = records[0]?.seq ?? lastSeq + 1;
    return Math.min(records.length, Math.max(0, Math.floor(seq) - first + 1));
  };

  return {
    add(fields) {
      lastSeq += 1;
      const record = { ...fields, seq: lastSeq } as T;
      records.push(record);
      byId.set(record._id, record);
      // dropped in batches (a tenth of `keep`), so an add copies the array only now and then
      if (records.length > keep + Math.ceil(keep / 10)) {
        const dropped = records.length - keep;
        for (const old of records.slice(0, dropped)) byId.delete(old._id);
        records = records.slice(dropped);
      }
      return record;
    },
    update(id, change) {
      const current = byId.get(id);
      if (!current) return undefined;
      const index = indexAfter(current.seq - 1);
      const changed = { ...change(current), _id: current._id, seq: current.seq };
      records[index] = changed;
      byId.set(id, changed);
      return changed;
    },
    byId: (id) => byId.get(id),
    list(matches, afterSeq, limit) {
      const found: T[] = [];
      if (afterSeq !== undefined) {
        for (let i = indexAfter(afterSeq); i < records.length && found.length < limit; i += 1) {
          const record = records[i] as T;
          if (matches(record)) found.push(record);
        }
        return found;
      }
      for (let i = records.length - 1; i >= 0 && found.length < limit; i -= 1) {
        const record = records[i] as T;
        if (matches(record)) found.push(record);
      }
      return found.reverse();
    },
  };
}
