import type { Server as HttpServer } from 'node:http';
import type { SocketIoEntry } from '@kickstand/platform/lifecycle';
import { Server, type Socket } from 'socket.io';
import { z } from 'zod';
import { bearerToken, type Identity, type TokenVerifier } from '@kickstand/platform/auth';
import type { Logger } from '@kickstand/platform/log';
import type {
  ClientToServerEvents,
  InterServerEvents,
  ServerToClientEvents,
  SocketData,
} from '@kickstand/platform/socket-events';
import type { ChatLog } from './chat-log';
import { useFlushInPlace } from './engine-flush';

type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type EventName = keyof ServerToClientEvents;

/** The one message of every refused handshake (the client's `connect_error`). */
export const unauthorizedMessage = 'unauthorized';

/**
 * How many sockets one user may hold on one instance: a dashboard per tab and device, with room
 * to spare, but not enough for one account to exhaust the instance's connections.
 */
export const maxSocketsPerUser = 10;

/** The connect_error of the socket one too many. */
export const tooManySocketsMessage = `too many connections: at most ${maxSocketsPerUser} open dashboards per user`;

/** Every socket of a user sits in this room, and only that user's events go there. */
export const roomOf = (userId: string): string => `user:${userId}`;

/** The sockets this instance holds, by user: what the bus handlers deliver to. */
export interface UserSockets {
  /** To every socket of the user on this instance; the payload is encoded once for all of them. */
  emit<E extends EventName>(userId: string, event: E, ...payload: Parameters<ServerToClientEvents[E]>): void;
  /** Closes every socket of the user on this instance. */
  disconnect(userId: string): void;
}

export interface SocketServer extends UserSockets {
  /** Hooks socket.io into the HTTP server (path /socket.io), before it listens. */
  attach(server: HttpServer): void;
  /**
   * The same socket.io for requests and upgrades that reach another HTTP server of this process
   * (single-machine mode: the gateway's public server), so a frame is written once to the
   * dashboard's connection instead of to a loopback connection that the gateway copies.
   */
  entry: SocketIoEntry;
  /** Closes every socket and socket.io's engine; the HTTP server is left to its owner. */
  close(): void;
}

// `auth` is whatever the client sent: only a string token counts.
const handshakeAuthSchema = z.object({ token: z.string().min(1) });

function tokenOf(socket: RealtimeSocket): string | undefined {
  const auth = handshakeAuthSchema.safeParse(socket.handshake.auth);
  return auth.success ? auth.data.token : bearerToken(socket.handshake.headers.authorization);
}

/**
 * socket.io for the dashboard: the handshake checks the sign-in token (socket.handshake.auth.token
 * or an Authorization: Bearer header; the platform's check refuses deactivated users and revoked tokens); each socket joins its user's
 * room and gets the chat history at once. No adapter: every realtime instance reads every bus
 * event and emits to the sockets it holds.
 */
export function createSocketServer(deps: {
  tokens: TokenVerifier;
  chatLog: ChatLog;
  log: Logger;
  /** Default maxSocketsPerUser. */
  maxSocketsPerUser?: number;
}): SocketServer {
  const { tokens, chatLog, log } = deps;
  const socketLimit = deps.maxSocketsPerUser ?? maxSocketsPerUser;
  if (!useFlushInPlace())
    log.warn('engine.io is not the version engine-flush.ts was written for: its own flush is used');
  const io: RealtimeServer = new Server({
    path: '/socket.io',
    // The spec's client tries websocket first, then polling.
    transports: ['websocket', 'polling'],
    serveClient: false,
  });
  let isAttached = false;
  const socketsOf = (userId: string): number => io.sockets.adapter.rooms.get(roomOf(userId))?.size ?? 0;

  io.use((socket, next) => {
    let identity: Identity;
    try {
      identity = tokens.verify(tokenOf(socket));
    } catch {
      next(new Error(unauthorizedMessage));
      return;
    }
    // The accepted socket joins its room on the next tick (below, on connection), before the
    // next handshake's packet is read; the check after the join covers what slips through.
    if (socketsOf(identity.userId) >= socketLimit) {
      log.info({ userId: identity.userId, limit: socketLimit }, 'socket refused: too many for this user');
      next(new Error(tooManySocketsMessage));
      return;
    }
    socket.data = { userId: identity.userId, username: identity.username, role: identity.role };
    next();
  });

  const sendHistory = async (socket: RealtimeSocket, reply: ServerToClientEvents['chat-history']) => {
    try {
      reply(await chatLog.recent(socket.data.userId));
    } catch (error) {
      log.error({ err: error, userId: socket.data.userId }, 'could not read the chat history');
    }
  };

  io.on('connection', (socket) => {
    // Join first, then read: a line emitted meanwhile is in the history and possibly also sent
    // just before it (the client drops ids it has), but never lost.
    void socket.join(roomOf(socket.data.userId));
    if (socketsOf(socket.data.userId) > socketLimit) {
      socket.disconnect(true);
      return;
    }
    log.debug({ userId: socket.data.userId, transport: socket.conn.transport.name }, 'socket connected');
    socket.on('disconnect', (reason) => log.debug({ userId: socket.data.userId, reason }, 'socket disconnected'));
    void sendHistory(socket, (history) => socket.emit('chat-history', history));
    socket.on('chat-history', (reply) => {
      if (typeof reply === 'function') void sendHistory(socket, reply);
    });
  });

  const close = () => {
    if (!isAttached) return;
    io.disconnectSockets(true);
    io.engine.close();
  };

  return {
    attach: (server) => {
      io.attach(server);
      isAttached = true;
    },
    // socket.io's engine exists once attached (the service's own server is attached before it listens)
    entry: {
      handleRequest: (req, res) => {
        if (isAttached) io.engine.handleRequest(req, res);
        else res.writeHead(503).end();
      },
      handleUpgrade: (req, socket, head) => {
        if (isAttached) io.engine.handleUpgrade(req, socket, head);
        else socket.destroy();
      },
    },
    close,
    emit: (userId, event, ...payload) => {
      const room = roomOf(userId);
      // nobody of that user is connected here: socket.io would still encode the packet for the empty room
      if (!io.sockets.adapter.rooms.has(room)) return;
      io.to(room).emit(event, ...payload);
    },
    disconnect: (userId) => {
      io.in(roomOf(userId)).disconnectSockets(true);
    },
  };
}
