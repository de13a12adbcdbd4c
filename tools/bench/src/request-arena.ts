/**
 * A phase's prepared HTTP requests, each kept as the exact bytes to write, laid end to end in a
 * few hundred buffers (one per signing batch) outside V8's heap, found by three typed arrays.
 *
 * Why: the generator holds every delivery of a phase from before its start to its end (315,000 for
 * five minutes at 1,000/s). As JavaScript objects with four strings each, that was ~75 MB of old
 * space for a 45-second phase, which each of its mark-compacts traced while it shared Kickstand's
 * two cores; as bytes there is nothing on the heap for the GC to trace, and nothing to build per
 * send (docs/performance.md, "The generator's own footprint").
 */

/** Requests laid end to end: request k of the batch ends at `ends[k]` (and starts where k − 1 ends). */
export interface RequestBatch {
  bytes: Buffer;
  ends: Uint32Array;
}

/** Each part a head (ASCII, written as latin1) and a body (UTF-8), packed into one buffer of its own. */
export function packRequests(parts: readonly { head: string; body: string }[]): RequestBatch {
  const ends = new Uint32Array(parts.length);
  let total = 0;
  parts.forEach((part, k) => {
    total += part.head.length + Buffer.byteLength(part.body, 'utf8');
    ends[k] = total;
  });
  // not from Node's shared pool: a buffer of its own, whose ArrayBuffer can be transferred
  const bytes = Buffer.allocUnsafeSlow(total);
  let at = 0;
  for (const part of parts) {
    at += bytes.write(part.head, at, 'latin1');
    at += bytes.write(part.body, at, 'utf8');
  }
  return { bytes, ends };
}

const notStored = 0xffffffff;

export class RequestArena {
  private readonly chunks: Buffer[] = [];
  /** Per request: its chunk, and where in it the request starts and ends. */
  private readonly chunkOf: Uint32Array;
  private readonly startOf: Uint32Array;
  private readonly endOf: Uint32Array;
  private storedCount = 0;
  private storedBytes = 0;

  constructor(readonly count: number) {
    this.chunkOf = new Uint32Array(count).fill(notStored);
    this.startOf = new Uint32Array(count);
    this.endOf = new Uint32Array(count);
  }

  /** Requests `first`, `first + 1`, … are the batch's, in its order. */
  add(first: number, batch: RequestBatch): void {
    const { bytes, ends } = batch;
    if (!(Number.isInteger(first) && first >= 0 && first + ends.length <= this.count)) {
      throw new RangeError(`requests ${first}…${first + ends.length - 1} are outside 0…${this.count - 1}`);
    }
    const chunk = this.chunks.length;
    let start = 0;
    for (let k = 0; k < ends.length; k++) {
      const end = ends[k] as number;
      if (end < start || end > bytes.length) throw new RangeError(`request ${first + k} ends outside its batch`);
      if (this.chunkOf[first + k] !== notStored) throw new Error(`request ${first + k} is stored already`);
      this.chunkOf[first + k] = chunk;
      this.startOf[first + k] = start;
      this.endOf[first + k] = end;
      start = end;
    }
    this.chunks.push(bytes);
    this.storedCount += ends.length;
    this.storedBytes += start;
  }

  /** The bytes of request `index` (a view: nothing is copied). */
  get(index: number): Buffer {
    const chunk = this.chunkOf[index];
    if (chunk === undefined || chunk === notStored) throw new RangeError(`request ${index} is not stored`);
    return (this.chunks[chunk] as Buffer).subarray(this.startOf[index], this.endOf[index]);
  }

  get isComplete(): boolean {
    return this.storedCount === this.count;
  }

  /** The requests' bytes altogether. */
  get byteLength(): number {
    return this.storedBytes;
  }
}
