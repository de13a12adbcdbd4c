import { createRequire } from 'node:module';
import { flushInPlace, isExpectedFlush, useFlushInPlace } from './engine-flush';

const engineFlush = () =>
  (createRequire(require.resolve('socket.io'))('engine.io') as { Socket: { prototype: { flush: unknown } } }).Socket
    .prototype.flush;

function engineSocket(transportWritable = true) {
  const sent: unknown[][] = [];
  const events: string[] = [];
  const socket = {
    readyState: 'open',
    transport: { writable: transportWritable, send: (packets: unknown[]) => sent.push(packets) },
    writeBuffer: [] as unknown[],
    packetsFn: [] as unknown[],
    sentCallbackFn: [] as unknown[],
    server: { emit: (event: string) => events.push(`server ${event}`) > 0 },
    emit: (event: string) => events.push(event) > 0,
  };
  return { socket, sent, events };
}

describe("engine.io's flush, emptying the write buffer in place", () => {
  test('when the installed engine.io is the version it was written from, then its flush is recognised and replaced', () => {
    // an upgrade of engine.io that changes its flush fails here: read it, then update engine-flush.ts
    expect(isExpectedFlush(engineFlush()) || engineFlush() === flushInPlace).toBe(true);
    expect(useFlushInPlace()).toBe(true);
    expect(engineFlush()).toBe(flushInPlace);
    expect(useFlushInPlace()).toBe(true);
  });

  test('when a flush is not the expected one, then it is left as it is', () => {
    const prototype = { flush: function flush() {} };
    expect(useFlushInPlace(prototype)).toBe(false);
    expect(prototype.flush).not.toBe(flushInPlace);
  });

  test('when a socket flushes, then the transport gets the packets and the same buffer array is emptied', () => {
    const { socket, sent, events } = engineSocket();
    const buffer = socket.writeBuffer;
    buffer.push('a', 'b');
    flushInPlace.call(socket);
    expect(sent).toEqual([['a', 'b']]);
    expect(socket.writeBuffer).toBe(buffer);
    expect(buffer).toEqual([]);
    expect(socket.sentCallbackFn).toEqual([null]);
    expect(events).toEqual(['flush', 'server flush', 'drain', 'server drain']);
  });

  test("when packets came with send callbacks, then they wait for the transport's drain as engine.io's do", () => {
    const { socket } = engineSocket();
    const callback = () => {};
    socket.writeBuffer.push('a');
    socket.packetsFn.push(callback);
    flushInPlace.call(socket);
    expect(socket.sentCallbackFn).toEqual([[callback]]);
    expect(socket.packetsFn).toEqual([]);
  });

  test('when the transport is not writable, then nothing is sent and the packets stay buffered', () => {
    const { socket, sent } = engineSocket(false);
    socket.writeBuffer.push('a');
    flushInPlace.call(socket);
    expect(sent).toEqual([]);
    expect(socket.writeBuffer).toEqual(['a']);
  });
});
