import { io, type Socket } from 'socket.io-client';

/**
 * The dashboards, in a process of their own (so their CPU is not the generator's): N socket.io
 * clients, each signed in as a streamer, connected through the gateway exactly as the web app
 * connects (websocket transport). Every chat-message event is recorded with its arrival time.
 */

interface Session {
  userId: string;
  token: string;
}

type Command =
  { type: 'connect'; url: string; sessions: Session[]; parallelism: number } | { type: 'collect' } | { type: 'close' };

const sockets: Socket[] = [];
let ids: string[] = [];
let at: number[] = [];
let disconnects = 0;

function connectOne(url: string, session: Session): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = io(url, {
      auth: { token: session.token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: 20_000,
    });
    socket.on('chat-message', (payload: { id?: string }) => {
      if (typeof payload?.id === 'string') {
        ids.push(payload.id);
        at.push(Date.now());
      }
    });
    socket.once('connect', () => {
      sockets.push(socket);
      socket.on('disconnect', () => disconnects++);
      resolve(true);
    });
    socket.once('connect_error', () => {
      socket.close();
      resolve(false);
    });
  });
}

process.on('message', (command: Command) => {
  void (async () => {
    switch (command.type) {
      case 'connect': {
        let next = 0;
        let failed = 0;
        await Promise.all(
          Array.from({ length: command.parallelism }, async () => {
            for (let i = next++; i < command.sessions.length; i = next++) {
              if (!(await connectOne(command.url, command.sessions[i] as Session))) failed++;
            }
          }),
        );
        process.send?.({ type: 'connected', connected: sockets.length, failed });
        return;
      }
      case 'collect': {
        process.send?.({ type: 'records', ids, at, disconnects });
        ids = [];
        at = [];
        return;
      }
      case 'close': {
        for (const socket of sockets) socket.close();
        process.send?.({ type: 'closed' });
        setTimeout(() => process.exit(0), 100);
        return;
      }
    }
  })();
});
