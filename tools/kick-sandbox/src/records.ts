/**
 * What the sandbox keeps of what happened: chat lines (reply targets, the control API's
 * `GET /chat`, the bench's poll by `seq`), calls and deliveries (`GET /calls`, `/deliveries`). In
 * memory, at least the newest `keep` of each, in `seq` order. They were in the store: three or four
 * of its writes per bot line (the delivery written twice, its ~1.2 KB body serialised each time),
 * each answer waited for them, and NeDB kept every line ever posted in memory anyway
 * (docs/performance.md, "Second round"). Only this process writes them; a restart starts them
 * over (the README says what a restart keeps).
 */
export interface SequencedRecord {
  _id: string;
  seq: number;
}

export interface RecordLog<T extends SequencedRecord> {
  /**
   * Keeps the record with the next `seq` (1 for the first). The oldest go once a tenth more than
   * `keep` are held (rounded up), so an add copies the array only now and then.
   */
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
