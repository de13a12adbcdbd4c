import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from './socket-events';
import { tokenStorage } from './token-storage';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | undefined;

/**
 * The one socket.io connection to the realtime service (same origin, /socket.io): websocket first,
 * then polling; 20 s connect timeout; reconnection delay 1-5 s (spec §7). It sends the stored token
 * in the handshake each time it (re)connects, and connects only when a screen asks for it.
 */
export function getSocket(): AppSocket {
  socket ??= io({
    autoConnect: false,
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    timeout: 20_000,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 5000,
    auth: (send) => send({ token: tokenStorage.get() }),
  });
  return socket;
}

/** Tests put a fake socket in place (testing/fake-socket.ts); undefined goes back to the real one. */
export function setSocket(replacement: AppSocket | undefined): void {
  socket = replacement;
}

/** Whether the socket is connected, kept current. */
export function useSocketConnected(): boolean {
  const subscribe = useCallback((onChange: () => void) => {
    const current = getSocket();
    current.on('connect', onChange);
    current.on('disconnect', onChange);
    return () => {
      current.off('connect', onChange);
      current.off('disconnect', onChange);
    };
  }, []);
  return useSyncExternalStore(subscribe, () => getSocket().connected);
}

/** Connects while the calling screen is mounted (dashboard, chat popout); returns whether it is connected. */
export function useSocketConnection(): boolean {
  useEffect(() => {
    const current = getSocket();
    current.connect();
    return () => {
      current.disconnect();
    };
  }, []);
  return useSocketConnected();
}
