import type { AppSocket } from '../lib/socket';
import type { ServerToClientEvents } from '../lib/socket-events';

type Listener = (...args: unknown[]) => void;

/**
 * Stands in for the socket.io client: components subscribe with on/off as usual; a test plays the
 * server with serverEmit(...) and drives the connection with serverConnect()/serverDisconnect().
 */
export class FakeSocket {
  connected = false;
  /** connect() connects at once unless a test wants to decide when. */
  isAutoConnecting = true;
  connectCalls = 0;
  private listeners = new Map<string, Set<Listener>>();

  on(event: string, listener: Listener): this {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }

  off(event: string, listener?: Listener): this {
    if (listener) this.listeners.get(event)?.delete(listener);
    else this.listeners.delete(event);
    return this;
  }

  connect(): this {
    this.connectCalls += 1;
    if (this.isAutoConnecting) this.serverConnect();
    return this;
  }

  disconnect(): this {
    if (this.connected) this.serverDisconnect();
    return this;
  }

  listenerCount(event: string): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  serverConnect(): void {
    if (this.connected) return;
    this.connected = true;
    this.fire('connect');
  }

  serverDisconnect(): void {
    this.connected = false;
    this.fire('disconnect', 'io server disconnect');
  }

  serverEmit<E extends keyof ServerToClientEvents>(event: E, ...args: Parameters<ServerToClientEvents[E]>): void {
    this.fire(event, ...args);
  }

  private fire(event: string, ...args: unknown[]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }

  asSocket(): AppSocket {
    return this as unknown as AppSocket;
  }
}
