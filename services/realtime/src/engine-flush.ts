/**
 * engine.io's `Socket.flush`, emptying the socket's write buffer in place instead of replacing it.
 *
 * Why: engine.io hands the buffered packets to the transport and puts a new empty array in
 * `writeBuffer`. A dashboard gets a line about as often as its channel's chat moves, so by the next
 * line that array is in the old generation; the line's packet is pushed into it (a new backing
 * store, in the young generation) and the next flush drops the array. A scavenge takes every
 * pointer from the old generation into the young one as live until the next full collection, so
 * the dropped array keeps the packet, its encoded text and its pre-encoded websocket frame alive
 * through two scavenges: promoted, ~400 bytes a line, which brings the owner thread's full
 * collections (and their marking pauses) sooner (docs/performance.md, "The fan-out's promotion").
 * Emptied in place, the array no longer points at them.
 *
 * engine.io's own flush is replaced only while it is the one this was written from (its source
 * text, whitespace aside); any other version keeps its own.
 */
import { createRequire } from 'node:module';

interface EngineSocket {
  readyState: string;
  transport: { writable: boolean; send(packets: unknown[]): void };
  writeBuffer: unknown[];
  packetsFn: unknown[];
  sentCallbackFn: unknown[];
  server: { emit(event: string, ...args: unknown[]): boolean };
  emit(event: string, ...args: unknown[]): boolean;
}

/** engine.io 6.6's `Socket.prototype.flush`, whitespace removed. */
const expectedFlushSource = `flush(){if("closed"!==this.readyState&&this.transport.writable&&this.writeBuffer.length){debug("flushingbuffertotransport");this.emit("flush",this.writeBuffer);this.server.emit("flush",this,this.writeBuffer);constwbuf=this.writeBuffer;this.writeBuffer=[];if(this.packetsFn.length){this.sentCallbackFn.push(this.packetsFn);this.packetsFn=[];}else{this.sentCallbackFn.push(null);}this.transport.send(wbuf);this.emit("drain");this.server.emit("drain",this);}}`;

/** True when `flush` is engine.io's flush this module replicates. */
export function isExpectedFlush(flush: unknown): boolean {
  return typeof flush === 'function' && flush.toString().replace(/\s+/g, '') === expectedFlushSource;
}

/** engine.io's flush with the write buffer emptied in place (the same steps, in the same order). */
export function flushInPlace(this: EngineSocket): void {
  if ('closed' !== this.readyState && this.transport.writable && this.writeBuffer.length) {
    this.emit('flush', this.writeBuffer);
    this.server.emit('flush', this, this.writeBuffer);
    const packets = this.writeBuffer.slice();
    this.writeBuffer.length = 0;
    if (this.packetsFn.length) {
      this.sentCallbackFn.push(this.packetsFn);
      this.packetsFn = [];
    } else {
      this.sentCallbackFn.push(null);
    }
    this.transport.send(packets);
    this.emit('drain');
    this.server.emit('drain', this);
  }
}

/** engine.io's Socket class, as socket.io loads it. */
function engineSocketPrototype(): { flush: unknown } {
  const fromSocketIo = createRequire(require.resolve('socket.io'));
  const engine = fromSocketIo('engine.io') as { Socket: { prototype: { flush: unknown } } };
  return engine.Socket.prototype;
}

/**
 * Puts flushInPlace in engine.io's Socket for this process (once is enough; again changes
 * nothing). False when engine.io's flush is not the expected one: then it is left as it ships.
 */
export function useFlushInPlace(prototype: { flush: unknown } = engineSocketPrototype()): boolean {
  if (prototype.flush === flushInPlace) return true;
  if (!isExpectedFlush(prototype.flush)) return false;
  prototype.flush = flushInPlace;
  return true;
}
